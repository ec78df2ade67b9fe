#!/usr/bin/env node
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { loadMcpConfig, USAGE } from './config.js';
import { createServer } from './create-server.js';
import { FileshiftContext } from './fileshift-context.js';
import { serveHttp } from './http-transport.js';

/** `fileshift-mcp`: stdio by default, Streamable HTTP with --http <port>. Logs go to stderr (stdout is the protocol). */
async function main(): Promise<void> {
  const loaded = loadMcpConfig(process.argv.slice(2), process.env);
  if (!loaded.ok) {
    process.stderr.write(`fileshift-mcp: invalid configuration:\n${loaded.problems.map((p) => `  - ${p}`).join('\n')}\n${USAGE}\n`);
    process.exit(78);
  }
  const { config } = loaded;
  const context = new FileshiftContext(config);
  if (config.httpPort === null) {
    await createServer(context, { allowLocalPaths: true }).connect(new StdioServerTransport());
    process.stderr.write(`fileshift-mcp: stdio, service ${config.serviceUrl}, wallet ${context.account.address}\n`);
    return;
  }
  const http = await serveHttp(() => createServer(context, { allowLocalPaths: false }), config.httpPort);
  process.stderr.write(`fileshift-mcp: Streamable HTTP on ${http.url}, service ${config.serviceUrl}, wallet ${context.account.address}\n`);
  const stop = () => void http.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`fileshift-mcp: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
