import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/app-config.js';
import { allowedOrigin } from './cross-origin.js';

describe('allowedOrigin: which pages may read an answer', () => {
  it('allows any page by default, and none without an Origin (not a cross-origin request)', () => {
    expect(allowedOrigin('*', 'https://app.example')).toBe('*');
    expect(allowedOrigin('*', undefined)).toBeUndefined();
  });

  it('echoes an allowed origin exactly and refuses the others', () => {
    const policy = ['https://app.example', 'http://localhost:5173'];
    expect(allowedOrigin(policy, 'http://localhost:5173')).toBe('http://localhost:5173');
    expect(allowedOrigin(policy, 'https://app.example.evil')).toBeUndefined();
    expect(allowedOrigin(policy, 'http://app.example')).toBeUndefined();
  });

  it('reads CORS_ALLOWED_ORIGINS: * by default, a list of origins, and refuses anything else', () => {
    const config = (value?: string) => loadConfig(value === undefined ? {} : { CORS_ALLOWED_ORIGINS: value }, 'v');
    const defaults = config();
    expect(defaults.ok && defaults.config.corsAllowedOrigins).toBe('*');
    const listed = config('https://app.example,http://localhost:5173/');
    expect(listed.ok && listed.config.corsAllowedOrigins).toEqual(['https://app.example', 'http://localhost:5173']);
    expect(config('app.example').ok).toBe(false);
    expect(config('https://a.example, https://b.example').ok).toBe(false);
  });
});
