import { describe, expect, it } from 'vitest';
import { loadConfig } from './app-config.js';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const result = loadConfig({}, '1.2.3', '/srv/fileshift');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.config).toMatchObject({
      role: 'all',
      host: '127.0.0.1',
      port: 3000,
      redisUrl: 'redis://127.0.0.1:6379',
      databaseUrl: undefined,
      // Under the directory the service starts in, resolved once: nothing downstream sees a relative path.
      dataDir: '/srv/fileshift/.data',
      scratchDir: '/srv/fileshift/.data/scratch',
      enginesDir: '/srv/fileshift/.data/engines',
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

  it('reads the outbound guard settings, and stops at an entry the guard cannot read', () => {
    const result = loadConfig({ OUTBOUND_ALLOW_HOSTS: '127.0.0.1/32, hooks.intranet', OUTBOUND_ALLOW_PORTS: '8080', WEBHOOK_MAX_ATTEMPTS: '3' }, 'v');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.config.outbound.policy.allowHosts.names.has('hooks.intranet')).toBe(true);
    expect(result.config.outbound.policy.allowPorts.has(8080)).toBe(true);
    expect(result.config.outbound.webhooks).toEqual({ maxAttempts: 3, retryBaseMs: 30_000, timeoutMs: 10_000 });
    expect(result.config.outbound.sourceUrl).toEqual({ timeoutMs: 60_000, idleTimeoutMs: 15_000, maxConcurrent: 16 });
    const refused = loadConfig({ OUTBOUND_ALLOW_HOSTS: '0.0.0.0/0', OUTBOUND_ALLOW_PORTS: 'http' }, 'v');
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.problems.find((p) => p.startsWith('OUTBOUND_ALLOW_HOSTS:'))).toContain('every address');
  });

  it('resolves every path against the starting directory, and keeps absolute ones as they are', () => {
    const relative = loadConfig({ DATA_DIR: 'state/../data', SCRATCH_DIR: './scratch' }, 'v', '/opt/app');
    expect(relative.ok && [relative.config.dataDir, relative.config.scratchDir, relative.config.enginesDir]).toEqual(['/opt/app/data', '/opt/app/scratch', '/opt/app/data/engines']);
    const absolute = loadConfig({ DATA_DIR: '/var/lib/fileshift', SCRATCH_DIR: '/tmp/jobs' }, 'v', '/opt/app');
    expect(absolute.ok && [absolute.config.dataDir, absolute.config.scratchDir]).toEqual(['/var/lib/fileshift', '/tmp/jobs']);
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
    expect(refused.problems[0]).toMatch(/^METRICS_TOKEN: .*value hidden/);
    expect(refused.problems[0]).not.toContain('short secret');
  });

  describe('storage', () => {
    const s3 = { STORAGE_DRIVER: 's3', S3_BUCKET: 'fileshift', S3_REGION: 'us-east-1', S3_ACCESS_KEY_ID: 'AKIAEXAMPLE', S3_SECRET_ACCESS_KEY: 'do-not-print-me' };

    it('keeps files on the local disk by default', () => {
      const result = loadConfig({}, 'v');
      expect(result.ok && result.config.storage).toEqual({ driver: 'local' });
    });

    it('reads the S3 settings; the endpoint is optional (AWS itself)', () => {
      const result = loadConfig({ ...s3, S3_FORCE_PATH_STYLE: 'true', S3_KEY_PREFIX: 'prod/files' }, 'v');
      expect(result.ok && result.config.storage).toEqual({
        driver: 's3',
        s3: { endpoint: undefined, region: 'us-east-1', bucket: 'fileshift', accessKeyId: 'AKIAEXAMPLE', secretAccessKey: 'do-not-print-me', forcePathStyle: true, keyPrefix: 'prod/files' },
      });
    });

    it('names each missing S3 setting on its own line', () => {
      const result = loadConfig({ STORAGE_DRIVER: 's3', S3_BUCKET: 'fileshift' }, 'v');
      expect(!result.ok && result.problems.sort()).toEqual([
        'S3_ACCESS_KEY_ID: is required with STORAGE_DRIVER=s3 (missing)',
        'S3_REGION: is required with STORAGE_DRIVER=s3 (missing)',
        'S3_SECRET_ACCESS_KEY: is required with STORAGE_DRIVER=s3 (missing)',
      ]);
    });

    it('refuses S3 settings under the local driver (a forgotten STORAGE_DRIVER), without repeating the secret', () => {
      const { STORAGE_DRIVER: _, ...settings } = s3;
      const result = loadConfig(settings, 'v');
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.problems).toHaveLength(1);
      expect(result.problems[0]).toMatch(/^STORAGE_DRIVER: S3_BUCKET, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY only apply with STORAGE_DRIVER=s3/);
      expect(result.problems.join('\n')).not.toContain('do-not-print-me');
    });

    it('names a wrong endpoint, bucket or flag with what it got', () => {
      const result = loadConfig({ ...s3, S3_ENDPOINT: 'ftp://minio', S3_BUCKET: 'Bad_Bucket', S3_FORCE_PATH_STYLE: 'yes' }, 'v');
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.problems.map((p) => p.split(':')[0]).sort()).toEqual(['S3_BUCKET', 'S3_ENDPOINT', 'S3_FORCE_PATH_STYLE']);
      expect(result.problems.join('\n')).not.toContain('do-not-print-me');
    });
  });
});
