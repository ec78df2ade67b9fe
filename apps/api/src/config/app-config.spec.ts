import { describe, expect, it } from 'vitest';
import { loadConfig } from './app-config.js';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const result = loadConfig({}, '1.2.3');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.config).toMatchObject({
      role: 'all',
      host: '127.0.0.1',
      port: 3000,
      redisUrl: 'redis://127.0.0.1:6379',
      databaseUrl: undefined,
      dataDir: '.data',
      queuePrefix: 'fileshift',
      prices: { detectAtomic: 2000, jobAtomic: 2000, resultStandardAtomic: 20000, resultLargeAtomic: 40000 },
      x402RateLimitPerMinute: 120,
      keyApi: {
        // Without a key: the spec's low testing limits. A new key: 40 MB uploads unless told otherwise.
        anonymous: { requestsPerMinute: 10, dailyQuota: 100, maxUploadBytes: 5_242_880 },
        keyDefaults: { requestsPerMinute: 120, dailyQuota: 10_000, maxUploadBytes: 41_943_040 },
        convertWaitSeconds: 120,
      },
      metrics: { token: undefined, workerPort: 9464 },
      version: '1.2.3',
    });
  });

  it('treats empty variables as unset and strips a trailing slash of PUBLIC_BASE_URL', () => {
    const result = loadConfig({ DATABASE_URL: '', PUBLIC_BASE_URL: 'https://files.example/' }, 'v');
    expect(result.ok && result.config.databaseUrl).toBeUndefined();
    expect(result.ok && result.config.publicBaseUrl).toBe('https://files.example');
  });

  it('names every wrong variable with what it got', () => {
    const result = loadConfig({ PORT: '99999', ROLE: 'both', DATABASE_URL: 'mysql://x', QUEUE_PREFIX: 'a b' }, 'v');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toHaveLength(4);
    expect(result.problems.find((p) => p.startsWith('PORT:'))).toContain('"99999"');
    expect(result.problems.find((p) => p.startsWith('ROLE:'))).toContain('"both"');
    expect(result.problems.find((p) => p.startsWith('DATABASE_URL:'))).toContain('postgres://');
    expect(result.problems.some((p) => p.startsWith('QUEUE_PREFIX:'))).toBe(true);
  });

  it('takes a metrics token of 16+ printable characters and never echoes a wrong one', () => {
    const accepted = loadConfig({ METRICS_TOKEN: 'scrape-token-0123456789', METRICS_PORT: '9100' }, 'v');
    expect(accepted.ok && accepted.config.metrics).toEqual({ token: 'scrape-token-0123456789', workerPort: 9100 });
    const refused = loadConfig({ METRICS_TOKEN: 'short secret' }, 'v');
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.problems[0]).toMatch(/^METRICS_TOKEN: .*value not shown/);
    expect(refused.problems[0]).not.toContain('short secret');
  });
});
