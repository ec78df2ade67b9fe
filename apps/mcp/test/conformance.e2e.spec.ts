import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIdleHttpServer } from './support/built-http-server.js';
import { node22, runServerScenario } from './support/conformance-suite.js';

/**
 * The official MCP conformance suite's server scenarios that apply to a tools-only server, run
 * against the built server's Streamable HTTP transport. The others test features we do not offer
 * (logging, completion, resources, prompts, sampling, elicitation from a test tool) or call the
 * suite's own fixture tools (tools-call-*, json-schema-2020-12, server-sse-polling), which a domain
 * server does not have.
 */
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'server-sse-multiple-streams', 'dns-rebinding-protection'];

const node = node22();

describe('MCP conformance suite (server scenarios) against the built server over Streamable HTTP', () => {
  let server: Awaited<ReturnType<typeof startIdleHttpServer>>;
  let url: string;
  beforeAll(async () => {
    if (!node) console.error('\n*** NODE 22 MISSING: the conformance suite needs Node >= 22 (npm test runs this suite on the Node 24 it installs); this test FAILS without it. ***\n');
    // No service behind it: none of these scenarios calls a tool.
    server = await startIdleHttpServer();
    url = server.url;
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('has a Node 22 to run the suite on', () => {
    expect(node, 'run it with npm test (on Node 24), or set FILESHIFT_NODE22').not.toBeNull();
  });

  it.each(SCENARIOS)('%s passes every check', async (scenario) => {
    const run = await runServerScenario(node!, url, scenario);
    expect(run.checks.length, run.output).toBeGreaterThan(0);
    expect(run.checks.filter((check) => check.status !== 'SUCCESS'), run.output).toEqual([]);
    expect(run.exitCode, run.output).toBe(0);
  });
});
