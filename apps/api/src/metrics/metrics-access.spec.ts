import { describe, expect, it } from 'vitest';
import { metricsAccess } from './metrics-access.js';

const TOKEN = 'scrape-token-0123456789';

describe('metricsAccess', () => {
  it('grants the bearer token, whatever the scheme\'s case', () => {
    expect(metricsAccess(TOKEN, `Bearer ${TOKEN}`)).toBe('granted');
    expect(metricsAccess(TOKEN, `bearer ${TOKEN}`)).toBe('granted');
  });

  it('refuses no header, another token, a prefix of it, another scheme and several headers', () => {
    expect(metricsAccess(TOKEN, undefined)).toBe('refused');
    expect(metricsAccess(TOKEN, 'Bearer another-token-0123456789')).toBe('refused');
    expect(metricsAccess(TOKEN, `Bearer ${TOKEN.slice(0, -1)}`)).toBe('refused');
    expect(metricsAccess(TOKEN, `Basic ${TOKEN}`)).toBe('refused');
    expect(metricsAccess(TOKEN, TOKEN)).toBe('refused');
    expect(metricsAccess(TOKEN, [`Bearer ${TOKEN}`, `Bearer ${TOKEN}`])).toBe('refused');
  });
});
