import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const STRAY_REJECTION = fileURLToPath(new URL('./support/stray-rejection.ts', import.meta.url));

describe('logStrayErrorsAndContinue', () => {
  it('logs an unhandled rejection on stderr and keeps the process running', async () => {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', STRAY_REJECTION]);
    expect(stderr).toContain('fileshift-mcp: unhandled rejection (still serving): Error: nobody handled this');
    expect(stdout).toBe('still running\n');
  });
});
