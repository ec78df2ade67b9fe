import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/test-app.js';

const run = promisify(execFile);
const conformanceCli = createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/dist/index.js');

/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance) against the hosted endpoint, for the server
 * scenarios that apply to it: the others need the suite's reference tools (test_simple_text…), prompts, resources,
 * sampling or elicitation, which a conversion service does not offer, or sessions (server-sse-*), which a stateless
 * endpoint has none of by design; docs/api/mcp-endpoint.md says which and why.
 */
const SCENARIOS = ['server-initialize', 'ping', 'tools-list'];
/** The suite needs Node 22 or later; `npm test` runs this suite on the shipped Node (24). */
const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

interface Check {
  name?: string;
  status: string;
  description?: string;
  errorMessage?: string;
}

describe('hosted MCP endpoint: the official MCP conformance suite, server scenarios that apply', () => {
  let t: TestApp;
  let output: string;

  beforeAll(async () => {
    t = await startTestApp();
    output = mkdtempSync(join(tmpdir(), 'mcp-conformance-'));
  });
  afterAll(async () => {
    await t?.close();
    if (output) rmSync(output, { recursive: true, force: true });
  });

  it('runs on a Node the suite supports', () => {
    expect(NODE_MAJOR, `the conformance suite needs Node ≥ 22; this is ${process.version} (npm test runs the api:mcp suite on the shipped Node)`).toBeGreaterThanOrEqual(22);
  });

  it.each(SCENARIOS)('%s: every check passes', async (scenario) => {
    const scenarioDir = join(output, scenario);
    const { stdout, stderr } = await run(process.execPath, [conformanceCli, 'server', '--url', `${t.baseUrl}/mcp`, '--scenario', scenario, '--output-dir', scenarioDir], {
      timeout: 60_000,
    }).catch((error: { stdout?: string; stderr?: string; message: string }) => {
      throw new Error(`conformance ${scenario} failed: ${error.message}\n${error.stdout ?? ''}\n${error.stderr ?? ''}`);
    });
    const checks = checksIn(scenarioDir);
    expect(checks.length, `${stdout}\n${stderr}`).toBeGreaterThan(0);
    expect(checks.filter((check) => check.status !== 'SUCCESS'), `${stdout}\n${stderr}`).toEqual([]);
  });
});

/** The checks the suite wrote for a scenario (checks.json, wherever under the output directory it puts it). */
function checksIn(dir: string): Check[] {
  const found: Check[] = [];
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && entry.name === 'checks.json') found.push(...(JSON.parse(readFileSync(join(entry.parentPath, entry.name), 'utf8')) as Check[]));
  }
  return found;
}
