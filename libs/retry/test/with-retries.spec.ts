import { describe, expect, it } from 'vitest';
import { withRetries } from '../src/index.js';

const QUICK = { attempts: 3, firstDelayMs: 1, maxDelayMs: 2 };

describe('withRetries', () => {
  it('returns the first success, reporting each failure before its wait', async () => {
    const failures: Array<[string, number]> = [];
    let calls = 0;
    const result = await withRetries(
      async () => {
        if (++calls < 3) throw new Error(`down ${calls}`);
        return 'kept';
      },
      { ...QUICK, onRetry: (error, attempt) => failures.push([(error as Error).message, attempt]) },
    );
    expect(result).toBe('kept');
    expect(failures).toEqual([
      ['down 1', 1],
      ['down 2', 2],
    ]);
  });

  it('throws the last failure once the attempts ran out', async () => {
    let calls = 0;
    await expect(
      withRetries(async () => {
        throw new Error(`down ${++calls}`);
      }, QUICK),
    ).rejects.toThrow('down 3');
    expect(calls).toBe(3);
  });
});
