#!/usr/bin/env node
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { loadMcpConfig, USAGE } from './config.js';
import { createServer } from './create-server.js';
import type { FileshiftContext } from './fileshift-context.js';
import { serveHttp } from './http-transport.js';
import { KEYSTORE_USAGE, runKeystoreCommand } from './keystore-command.js';
import { openContext } from './startup.js';
import { logStrayErrorsAndContinue } from './stray-errors.js';

/** The exit code for a configuration error (EX_CONFIG of sysexits.h). */
const EXIT_CONFIG = 78;

/** `fileshift-mcp`: stdio by default, Streamable HTTP with --http <port>. Logs go to stderr (stdout is the protocol). */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === 'keystore') {
    process.exitCode = await runKeystoreCommand(args.slice(1), { env: process.env, stdin: process.stdin, prompt: process.stderr, stdout: process.stdout });
    return;
  }
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`${USAGE}\n\n${KEYSTORE_USAGE}\n`);
    return;
  }
  const loaded = loadMcpConfig(args, process.env);
  const opened = loaded.ok ? openContext(loaded.config) : loaded;
  if (!loaded.ok || !opened.ok) {
    const problems = !loaded.ok ? loaded.problems : !opened.ok ? opened.problems : [];
    process.stderr.write(`fileshift-mcp: invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}\n${USAGE}\n`);
    process.exit(EXIT_CONFIG);
  }
  const { config } = loaded;
  const { context } = opened;
  logStrayErrorsAndContinue();
  if (config.httpPort === null) {
    await createServer(context, { allowLocalPaths: true }).connect(new StdioServerTransport());
    process.stderr.write(`fileshift-mcp: stdio, service ${config.serviceUrl}, wallet ${describeWallet(context)}, output ${config.outputDir}\n`);
    return;
  }
  const http = await serveHttp(() => createServer(context, { allowLocalPaths: false }), {
    port: config.httpPort,
    host: config.httpHost,
    allowed: { hosts: config.allowedHosts, origins: config.allowedOrigins },
    bearerToken: config.bearerToken,
  });
  const access = config.bearerToken ? 'bearer token required' : 'no authentication; loopback only';
  process.stderr.write(
    `fileshift-mcp: Streamable HTTP on ${http.url} (${access}), service ${config.serviceUrl}, wallet ${describeWallet(context)}, output ${config.outputDir}\n`,
  );
  const stop = () => void http.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

/** The wallet's addresses (never its keys). */
function describeWallet(context: FileshiftContext): string {
  const { evm, solana } = context.keys;
  return [evm && `EVM ${evm.address}`, solana && `Solana ${solana.address}`].filter(Boolean).join(', ');
}

main().catch((error: unknown) => {
  process.stderr.write(`fileshift-mcp: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
