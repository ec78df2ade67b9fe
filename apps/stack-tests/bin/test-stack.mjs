#!/usr/bin/env node
// The stack suite against a running Fileshift stack:
//   npm run test:stack -- --base-url http://localhost:3000 [--api-key fsk_…] [--require-all]
// A stack in dev mode names its own dev-chain payer; for a live stack put a funded payer's key in
// STACK_PAYER_KEY (the suite pays at most 0.05 USDC a call, 0.5 in all); without a payer the paid tests,
// and without a key the key API tests, are reported skipped — unless --require-all (or CI) makes them fail.
// Without --base-url it starts docker-compose.yml's topology as processes here and tests that.
import { spawnSync } from 'node:child_process';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';
import { parseArgs } from 'node:util';

const project = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({ options: { 'base-url': { type: 'string' }, 'api-key': { type: 'string' }, 'require-all': { type: 'boolean' } } });

const run = (command, args, env = process.env) => spawnSync(command, args, { cwd: project, stdio: 'inherit', env }).status ?? 1;

if (!values['base-url']) {
  process.exit(run('npx', ['nx', 'run-many', '-t', 'build', '--projects=@fileshift/api,@fileshift/testing', '--output-style=static']) || run(process.execPath, ['--import', 'tsx', 'src/test-stack-as-processes.ts']));
}
const env = { ...process.env, STACK_BASE_URL: values['base-url'], ...(values['api-key'] ? { STACK_API_KEY: values['api-key'] } : {}), ...(values['require-all'] ? { STACK_REQUIRE_ALL: 'true' } : {}) };
process.exit(run('npx', ['vitest', 'run', '--project', 'stack'], env));
