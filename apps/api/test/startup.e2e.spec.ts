import { describe, expect, it } from 'vitest';
import { freePort, spawnService } from './support/service-process.js';

describe('start-up failures', () => {
  it('fails within 10 seconds with one line naming the Redis URL when Redis is unreachable', async () => {
    const port = await freePort();
    const started = Date.now();
    const service = spawnService({ REDIS_URL: `redis://127.0.0.1:${port}`, LOG_LEVEL: 'silent', PORT: '0' });
    const code = await service.exited;
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(code).not.toBe(0);
    const lines = service.output().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`Redis is not reachable at redis://127.0.0.1:${port}`);
    expect(lines[0]).toContain('redis-server');
    expect(service.output()).not.toMatch(/\bat .*\.js:\d+/);
  });

  it('refuses a wrong configuration with one message per variable', async () => {
    const service = spawnService({ PORT: 'eighty', REDIS_URL: 'http://nope', ROLE: 'both' });
    expect(await service.exited).toBe(78);
    const output = service.output();
    expect(output).toContain('PORT:');
    expect(output).toContain('REDIS_URL:');
    expect(output).toContain('ROLE:');
    expect(output).not.toMatch(/\bat .*\.js:\d+/);
  });

  it('refuses dev payments under NODE_ENV=production with one line saying what to set', async () => {
    const service = spawnService({ NODE_ENV: 'production', PORT: '0', LOG_LEVEL: 'silent' });
    expect(await service.exited).toBe(78);
    const lines = service.output().trim().split('\n');
    expect(lines).toEqual([
      'fileshift: invalid configuration: PAYMENTS_MODE: dev payments (test USDC on a local chain) are refused with NODE_ENV=production: ' +
        'set PAYMENTS_MODE=live, FACILITATOR_URL and X402_EVM_PAY_TO and/or X402_SVM_PAY_TO (missing)',
    ]);
  });

  it('refuses FACILITATOR_URL together with PAYMENTS_MODE=dev', async () => {
    const service = spawnService({ PAYMENTS_MODE: 'dev', FACILITATOR_URL: 'https://facilitator.example', PORT: '0', LOG_LEVEL: 'silent' });
    expect(await service.exited).toBe(78);
    expect(service.output().trim().split('\n')).toEqual([expect.stringMatching(/^fileshift: invalid configuration: FACILITATOR_URL: is for live payments and contradicts PAYMENTS_MODE=dev/)]);
  });
});
