import { join } from 'node:path';
import { matchesAny, specFilesOf } from './spec-files.js';

/**
 * THE list of test suites `npm test` runs (tools/test/run-suites.ts), each with its budget in suite-budgets.json.
 *
 * A suite is one or more Vitest runs (or a command) in a process of its own; suites run side by side as the cores
 * allow, so a suite says how many cores it keeps busy: about one for a suite that converts (the engines work), less for
 * end-to-end files that mostly wait on their services. Every spec file of a project runs exactly once in the full set:
 * a file no suite names runs in its project's `rest` suite, and a file named twice stops the runner.
 *
 * The full set runs on the Node the service ships with (the Dockerfile's); the smoke set proves on this machine's
 * Node, when it is another, that the code loads and serves there: unit tests, start-up and roles, and the SDK as a
 * packed package paying for one conversion end to end.
 */
interface VitestRun {
  project: string;
  /** Globs relative to the project; `rest` is every file of the project no other suite of the full set names. */
  files: readonly string[] | 'rest';
  /** Files of those globs left to other suites. */
  except?: readonly string[];
  /** A Vitest project of the project's config (stack-tests has two). */
  vitestProject?: string;
  /** Files of this run that Vitest may run at once (each has its own database, queue prefix, port and data directory). */
  maxWorkers?: number;
  /**
   * Each file in a module registry of its own (Vitest's default). The runner shares one between the files of a run
   * instead: no test mocks a module, and importing the service's modules again for each file cost more than its tests.
   */
  isolate?: boolean;
}

interface SuiteSpec {
  name: string;
  cores: number;
  runs?: readonly VitestRun[];
  /** Node arguments of a command suite's commands, each run in its `cwd` (relative to the root), one after another. */
  commands?: ReadonlyArray<{ cwd: string; args: readonly string[] }>;
  /** The spec files a command suite runs itself. */
  covers?: readonly VitestRun[];
  env?: Record<string, string>;
}

/** What engine a conversion-matrix shard proves (test/conversion-matrix.*.spec.ts): a file each, run apart. */
const matrixShard = (shard: string, cores = 1.5): SuiteSpec => ({
  name: `converters:matrix-${shard}`,
  cores,
  runs: [{ project: 'libs/converters', files: [`test/conversion-matrix.${shard}.spec.ts`] }],
});

// The nx CLI (a JavaScript file behind npm's link), run by the suite's Node.
const NX = 'node_modules/.bin/nx';
// dependency-cruiser's CLI, the same way: `npm run lint:layers` (the layering rules in .dependency-cruiser.cjs).
const DEPCRUISE = 'node_modules/.bin/depcruise';

export const FULL_SUITES: readonly SuiteSpec[] = [
  {
    name: 'typecheck',
    cores: 1.5,
    // Every project's, then this runner's own (tools/ belongs to no project).
    commands: [
      { cwd: '.', args: [NX, 'run-many', '-t', 'typecheck', '--parallel=2', '--outputStyle=static'] },
      { cwd: '.', args: ['node_modules/typescript/bin/tsc', '-p', 'tools/tsconfig.json'] },
    ],
  },
  {
    name: 'lint',
    cores: 1.5,
    commands: [
      { cwd: '.', args: [NX, 'run-many', '-t', 'lint', '--parallel=2', '--outputStyle=static'] },
      { cwd: '.', args: [DEPCRUISE, 'apps/api/src', 'libs/converters/src', '--config', '.dependency-cruiser.cjs'] },
    ],
  },

  ...['video-1', 'video-2', 'audio-1', 'images-1', 'documents-1', 'documents-2'].map((shard) => matrixShard(shard)),
  { name: 'converters:document-references', cores: 1, runs: [{ project: 'libs/converters', files: ['test/document-references.spec.ts'] }] },
  { name: 'converters:ocr', cores: 1, runs: [{ project: 'libs/converters', files: ['src/engines/ocr/**', 'src/engines/poppler/poppler-scans.runtime.spec.ts'] }] },
  {
    name: 'converters:sandbox',
    cores: 0.8,
    runs: [{ project: 'libs/converters', files: ['test/sandbox-*.spec.ts', 'test/memory-bound.spec.ts', 'test/sandboxed-process.runner.spec.ts', 'test/warm-pool.spec.ts', 'test/node-host.spec.ts', 'src/engines/libreoffice/libreoffice-*.spec.ts'] }],
  },
  // File operations (rotate, stamp, protect, trim, strip metadata…) and joins: the engines that do them, each checked by another reader.
  { name: 'converters:operations', cores: 1, runs: [{ project: 'libs/converters', files: ['src/engines/qpdf/**', 'src/engines/exiftool/**', 'src/engines/**/*.operations.spec.ts'] }] },
  { name: 'converters:engines', cores: 1, runs: [{ project: 'libs/converters', files: 'rest' }] },

  { name: 'api:faults', cores: 0.5, runs: [{ project: 'apps/api', files: ['test/faults.e2e.spec.ts', 'test/worker-crash.e2e.spec.ts'] }] },
  { name: 'api:fuzz', cores: 1, runs: [{ project: 'apps/api', files: ['test/fuzz.e2e.spec.ts', 'test/hostile-*.e2e.spec.ts'] }] },
  { name: 'api:processes', cores: 0.8, runs: [{ project: 'apps/api', files: ['test/readme-path.e2e.spec.ts', 'test/hosts-apart.e2e.spec.ts', 'test/key-api-access.e2e.spec.ts', 'test/engine-sandbox.e2e.spec.ts', 'test/startup.e2e.spec.ts', 'test/roles.e2e.spec.ts', 'test/embedded-database.spec.ts', 'test/migrations.spec.ts', 'test/payment-ledger.spec.ts', 'test/private-servers.spec.ts'] }] },
  { name: 'api:conversions', cores: 1, runs: [{ project: 'apps/api', files: ['test/documents.e2e.spec.ts', 'test/media.e2e.spec.ts', 'test/archives.e2e.spec.ts', 'test/conversion-options.e2e.spec.ts', 'test/convert-file.e2e.spec.ts', 'test/status-wait.e2e.spec.ts', 'test/object-storage*.e2e.spec.ts', 'test/metrics.e2e.spec.ts'] }] },
  { name: 'api:outbound', cores: 1, runs: [{ project: 'apps/api', files: ['test/source-urls.e2e.spec.ts', 'test/webhooks.e2e.spec.ts'] }] },
  { name: 'api:operations', cores: 1, runs: [{ project: 'apps/api', files: ['test/file-joins.e2e.spec.ts', 'test/file-operations.e2e.spec.ts'] }] },
  { name: 'api:mcp', cores: 1, runs: [{ project: 'apps/api', files: ['test/mcp-endpoint.e2e.spec.ts', 'test/mcp-endpoint-joins.e2e.spec.ts', 'test/mcp-conformance.e2e.spec.ts'] }] },
  { name: 'api:rest', cores: 1, runs: [{ project: 'apps/api', files: 'rest' }] },

  { name: 'sdk', cores: 1, runs: [{ project: 'libs/sdk', files: 'rest' }] },
  { name: 'mcp', cores: 1, runs: [{ project: 'apps/mcp', files: 'rest' }] },
  {
    name: 'libs',
    cores: 1,
    runs: ['libs/formats', 'libs/detection', 'libs/x402-nest', 'libs/devchain', 'libs/agent-wallet', 'libs/outbound', 'libs/retry'].map((project) => ({ project, files: 'rest' as const })),
  },
  { name: 'stack:compose', cores: 0.5, runs: [{ project: 'apps/stack-tests', files: ['test/*.spec.ts'], vitestProject: 'compose' }] },
  {
    name: 'stack:processes',
    cores: 1,
    // docker-compose.yml's topology as processes, and the stack suite (test/stack) against it.
    commands: [{ cwd: 'apps/stack-tests', args: ['--import', 'tsx', 'src/test-stack-as-processes.ts'] }],
    covers: [{ project: 'apps/stack-tests', files: ['test/stack/**'] }],
  },
];

/** Unit tests: every project's tests but those that start engines, services or chains. */
const UNIT_RUNS: readonly VitestRun[] = [
  ...['libs/formats', 'libs/detection', 'libs/agent-wallet', 'libs/x402-nest', 'libs/outbound', 'libs/retry'].map((project) => ({ project, files: ['**'] })),
  { project: 'apps/api', files: ['src/**'] },
  { project: 'libs/converters', files: ['src/**', 'test/conversion-*.spec.ts', 'test/sandbox-pure.spec.ts'], except: ['**/*.runtime.spec.ts', '**/*.operations.spec.ts', 'src/engines/libreoffice/**', 'test/conversion-matrix*'] },
  { project: 'libs/sdk', files: ['test/*.spec.ts'], except: ['test/*.e2e.spec.ts', 'test/examples.spec.ts', 'test/openapi-drift.spec.ts', 'test/package.spec.ts'] },
  { project: 'apps/mcp', files: ['test/*.spec.ts'], except: ['test/*.e2e.spec.ts'] },
];

export const SMOKE_SUITES: readonly SuiteSpec[] = [
  { name: 'unit', cores: 1, runs: UNIT_RUNS },
  {
    name: 'service',
    cores: 1,
    runs: [
      { project: 'apps/api', files: ['test/startup.e2e.spec.ts', 'test/roles.e2e.spec.ts'] },
      // The packed SDK installed in a fresh project pays for a conversion end to end: both at once.
      { project: 'libs/sdk', files: ['test/packed-package.e2e.spec.ts'] },
    ],
  },
];

export interface ResolvedSuite {
  name: string;
  cores: number;
  /** Each step is the arguments of one `node` run, in its directory; the steps run one after another. */
  steps: Array<{ cwd: string; args: string[] }>;
  /** Every spec file it runs, relative to the root. */
  files: string[];
  env: Record<string, string>;
  /** The smoke set, run on this machine's Node. */
  smoke: boolean;
}

/**
 * The suites with their files: the full set, and the smoke set named after this machine's Node (`smokeNode`, e.g.
 * node20) when it is not the shipped one. Throws when a spec file would run twice in the full set, or a glob names
 * no file.
 */
export function resolveSuites(root: string, { smokeNode }: { smokeNode?: string } = {}): ResolvedSuite[] {
  const projectFiles = new Map<string, string[]>();
  const filesOf = (project: string) => {
    let files = projectFiles.get(project);
    if (!files) projectFiles.set(project, (files = specFilesOf(join(root, project))));
    return files;
  };
  const vitest = join(root, 'node_modules/vitest/vitest.mjs');
  const named = new Map<string, string>();
  const problems = new Set<string>();
  const chosen = (run: VitestRun) => {
    if (run.files === 'rest') return [];
    const files = filesOf(run.project).filter((file) => matchesAny(file, run.files as string[]) && !matchesAny(file, run.except ?? []));
    if (files.length === 0) problems.add(`${run.project}: ${run.files.join(', ')} names no spec file`);
    return files;
  };
  // Files the full set names explicitly, each once.
  for (const suite of FULL_SUITES) {
    for (const run of [...(suite.runs ?? []), ...(suite.covers ?? [])]) {
      for (const file of chosen(run)) {
        const key = `${run.project}/${file}`;
        if (named.has(key)) problems.add(`${key} is in ${named.get(key)} and ${suite.name}`);
        named.set(key, suite.name);
      }
    }
  }
  const resolveRun = (run: VitestRun) => {
    const files = run.files === 'rest' ? filesOf(run.project).filter((file) => !named.has(`${run.project}/${file}`)) : chosen(run);
    return { files: files.map((file) => `${run.project}/${file}`), step: { cwd: join(root, run.project), args: [vitest, 'run', ...(run.vitestProject ? ['--project', run.vitestProject] : []), ...(run.maxWorkers ? [`--maxWorkers=${run.maxWorkers}`] : []), ...(run.isolate ? [] : ['--no-isolate']), ...files.map((file) => join(root, run.project, file))] } };
  };
  const resolve = (suite: SuiteSpec, smoke: boolean, prefix = ''): ResolvedSuite => {
    const runs = (suite.runs ?? []).map(resolveRun);
    for (const run of runs) if (run.files.length === 0) problems.add(`${prefix}${suite.name} has a run with no file left`);
    const steps = suite.commands ? suite.commands.map((command) => ({ cwd: join(root, command.cwd), args: [...command.args] })) : runs.map((run) => run.step);
    const files = suite.commands ? (suite.covers ?? []).flatMap((run) => resolveRun(run).files) : runs.flatMap((run) => run.files);
    return { name: `${prefix}${suite.name}`, cores: suite.cores, steps, files, env: suite.env ?? {}, smoke };
  };
  const suites = FULL_SUITES.map((suite) => resolve(suite, false));
  if (smokeNode) suites.push(...SMOKE_SUITES.map((suite) => resolve(suite, true, `${smokeNode}:`)));
  if (problems.size > 0) throw new Error(`tools/test/suites.ts: ${[...problems].join('; ')}`);
  return suites;
}
