import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_SERVER, UNFUNDED_KEY } from './support/built-http-server.js';

describe('the built server bound off loopback', () => {
  let dir: string;
  beforeAll(() => void (dir = mkdtempSync(join(tmpdir(), 'mcp-remote-start-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses to start without a bearer token and the allowed host names (exit 78, one line each)', async () => {
    const env = { PATH: process.env.PATH ?? '', FILESHIFT_WALLET_PRIVATE_KEY: UNFUNDED_KEY, FILESHIFT_OUTPUT_DIR: join(dir, 'out'), FILESHIFT_LEDGER: join(dir, 'ledger.jsonl') };
    const child = spawn(process.execPath, [BUILT_SERVER, '--http', '8808', '--host', '0.0.0.0'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    expect(await new Promise((resolve) => child.once('exit', resolve))).toBe(78);
    expect(stderr.split('\n').filter((line) => line.startsWith('  - '))).toEqual([
      '  - FILESHIFT_MCP_TOKEN: required when binding to 0.0.0.0 (not loopback): anyone who reaches the server would spend from the wallet',
      '  - FILESHIFT_MCP_ALLOWED_HOSTS: required when binding to 0.0.0.0: the host names clients use, e.g. mcp.example.com',
    ]);
  });
});
