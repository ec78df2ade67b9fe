import { constants } from 'node:fs';
import { access, lchown, lstat, readdir, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assertAbsolute, machineTempDir } from './absolute-path.js';
import { bubblewrapArguments, type SandboxIdentity } from './bubblewrap-arguments.js';
import { CHECK_PATIENCE_MS } from './check-patience.js';
import type { ProcessLimits } from './process-limits.js';
import { ownedDirectory, sweepOrphanDirectories } from './owned-directories.js';
import { readSandboxLayout, type SandboxLayout } from './sandbox-layout.js';
import { SandboxUsers } from './sandbox-users.js';
import { compileSeccompFilter } from './seccomp/seccomp-program.js';
import { engineSyscallRules, type SocketPolicy } from './seccomp/seccomp-rules.js';
import { seccompArchOf, type SeccompArch } from './seccomp/syscall-table.js';
import { spawnWrapped } from './spawn-wrapped.js';
import { SECCOMP_FD, STATUS_FD, type WrappedCommand } from './wrapped-command.js';

import type { SandboxSetting } from './sandbox-settings.js';

export { SANDBOX_SETTINGS, type SandboxSetting } from './sandbox-settings.js';

/** The layers of the sandbox, each holding or not on this machine. */
export interface SandboxLayers {
  /** Own pid, mount, network, IPC and UTS namespaces, no capabilities, no_new_privs, limits. */
  namespaces: boolean;
  /** The seccomp filter of sandbox/seccomp. */
  seccomp: boolean;
  /** Each sandbox runs as a user of its own, not as the worker's user (needs a root worker). */
  separateUser: boolean;
}

/** What a worker says about its engines' isolation (start-up log, capabilities, readiness, metrics). */
export interface SandboxStatus {
  setting: SandboxSetting;
  sandboxed: boolean;
  /** How engines got their identity, when sandboxed. */
  identity?: IdentityMode;
  layers: SandboxLayers;
  /** One line: what holds, or why not. */
  description: string;
}

/** The fix a worker that cannot sandbox names (the one line it prints before it exits). */
const SANDBOX_FIX = 'run the worker as root on a machine whose kernel lets bubblewrap make user namespaces (docs/engine-sandbox.md), or set ENGINE_SANDBOX=off to run engines without a sandbox';

/** `ENGINE_SANDBOX=required` on a machine that cannot sandbox: the worker must not start. */
export class SandboxUnavailableError extends Error {
  constructor(reason: string) {
    super(`ENGINE_SANDBOX=required, but engines cannot be sandboxed here: ${reason}; to fix: ${SANDBOX_FIX}`);
    this.name = 'SandboxUnavailableError';
  }
}

/**
 * The sandbox's trial failed on what we gave bubblewrap (a path it cannot find, an option it does not know): our bug,
 * not a machine that cannot sandbox. It fails the worker in every mode, and never reads as "this kernel cannot".
 */
export class SandboxSetupError extends Error {
  constructor(problem: string) {
    super(`the engine sandbox could not be set up: ${problem}; this is a bug of Fileshift's sandbox, not of this machine`);
    this.name = 'SandboxSetupError';
  }
}

/** What bubblewrap says when it was handed something wrong, as opposed to refused by the kernel. */
const SETUP_MISTAKE = /can't find source path|unknown option|usage: bwrap|no such file or directory|must be an absolute path/i;

/** What one engine command needs from the sandbox. */
export interface SandboxRequest {
  command: string;
  args: readonly string[];
  /** Its one writable place (and everything in it is handed to the sandbox's user). */
  writableDirs: readonly string[];
  readOnlyPaths?: readonly string[];
  cwd: string;
  limits: ProcessLimits;
  sockets: SocketPolicy;
}

/** A command ready to spawn, holding its sandbox's user until released (when the process has ended). */
export interface PreparedCommand {
  wrapped: WrappedCommand;
  /** Gives the sandbox's user something made later in its writable directory (a warm engine's next output directory). */
  handOver(path: string): Promise<void>;
  release(): void;
}

const TRIAL_PREFIX = 'fileshift-sandbox-trial-';
/** The sandbox's /etc/passwd and /etc/group (shipped beside this module; the build copies them). */
const SANDBOX_PASSWD = fileURLToPath(new URL('./etc/passwd', import.meta.url));
const SANDBOX_GROUP = fileURLToPath(new URL('./etc/group', import.meta.url));
const LOWER_PRIORITY = ['nice', '-n', '10'];

/** How engines get their identity here (see SandboxIdentity), the strongest that works first. */
export type IdentityMode = SandboxIdentity['kind'];

interface Environment {
  layout: SandboxLayout;
  bwrap: string;
  arch?: SeccompArch;
  identity: IdentityMode;
}

/**
 * The engine sandbox of one worker: bubblewrap around every engine process, a seccomp filter per engine's
 * socket policy, limits through prlimit, a user of its own per sandbox. Decided once at start-up by running a
 * real sandboxed command; every engine process then goes through `prepare` (the one runner and the warm pools
 * call it).
 */
export class EngineSandbox {
  private readonly filters = new Map<SocketPolicy, Buffer>();
  private readonly users = new SandboxUsers();

  private constructor(
    readonly status: SandboxStatus,
    private readonly environment?: Environment,
  ) {}

  /** Engines run unsandboxed: ENGINE_SANDBOX=off, an operator's choice. */
  static unsandboxed(reason: string): EngineSandbox {
    return new EngineSandbox({ setting: 'off', sandboxed: false, layers: { namespaces: false, seccomp: false, separateUser: false }, description: reason });
  }

  /**
   * Probes this machine (a sandboxed `true`, about 20 ms): bubblewrap present and allowed to make its namespaces,
   * a seccomp filter for this architecture, a worker that may change user. `required` throws SandboxUnavailableError
   * when any layer is missing, and SandboxSetupError when the trial failed on what we gave bubblewrap.
   */
  static async start(setting: SandboxSetting, options: { identities?: readonly IdentityMode[]; workRoots?: readonly string[] } = {}): Promise<EngineSandbox> {
    if (setting === 'off') return EngineSandbox.unsandboxed('engines are not sandboxed: ENGINE_SANDBOX=off');
    for (const root of options.workRoots ?? []) {
      if (!isAbsolute(root)) throw new SandboxSetupError(`its work root must be an absolute path, not ${JSON.stringify(root)}`);
    }
    const refuse = (reason: string): never => {
      throw new SandboxUnavailableError(reason);
    };
    const bwrap = await findExecutable('bwrap');
    if (!bwrap) return refuse('bubblewrap is not installed (apt-get install bubblewrap)');
    for (const tool of ['prlimit', 'setpriv']) if (!(await findExecutable(tool))) return refuse(`${tool} is not installed (apt-get install util-linux)`);
    const base = { layout: await readSandboxLayout(), bwrap, arch: seccompArchOf(process.arch) };
    // A root worker gives each sandbox a user of its own, made by a privileged bubblewrap, else by an unprivileged one
    // started as that user (a container's narrowed root) — never a user namespace of root's, whose engines would be
    // root outside it, without a process limit of their own. A worker that is not root: a user namespace.
    const modes = options.identities ?? (process.getuid?.() === 0 ? (['own-user', 'own-user-namespace'] as const) : (['user-namespace'] as const));
    const problems: string[] = [];
    let environment: Environment | undefined;
    for (const identity of modes) {
      const candidate: Environment = { ...base, identity };
      const problem = await EngineSandbox.trialRuns(candidate, options.workRoots ?? [machineTempDir()]);
      if (!problem) {
        environment = candidate;
        break;
      }
      if (SETUP_MISTAKE.test(problem)) throw new SandboxSetupError(`${identity}: ${problem}`);
      problems.push(`${identity}: ${problem}`);
    }
    if (!environment) return refuse(`bubblewrap cannot make its sandbox here (${problems.join('; ')})`);
    const { arch } = environment;
    const layers: SandboxLayers = { namespaces: true, seccomp: arch !== undefined, separateUser: environment.identity !== 'user-namespace' };
    // A user of their own is required unless the caller chose the identities to try (a test of one mode).
    const missing = [
      !layers.seccomp && `no seccomp filter for ${process.arch}`,
      !layers.separateUser && !options.identities && 'engines would run as the worker’s own user outside their namespaces (the worker is not root)',
    ].filter((reason): reason is string => Boolean(reason));
    if (missing.length > 0) return refuse(missing.join('; '));
    const description = `engines are sandboxed (bubblewrap: own pid, mount, network and IPC namespaces${layers.separateUser ? ', a user of their own' : ', a user namespace'}, no capabilities, no_new_privs, limits, seccomp)`;
    return new EngineSandbox({ setting, sandboxed: true, identity: environment.identity, layers, description }, environment);
  }

  get sandboxed(): boolean {
    return this.status.sandboxed;
  }

  /**
   * The command to spawn for `request`: sandboxed when the sandbox holds (its writable directories handed to the
   * sandbox's user first), else the command under `nice` as it is. Release it once the process has ended.
   */
  async prepare(request: SandboxRequest): Promise<PreparedCommand> {
    // Checked sandboxed or not: a relative path is a bug of the caller's, whatever this machine allows.
    for (const dir of request.writableDirs) assertOwnDirectory(assertAbsolute(dir, 'a sandbox\'s writable directory'));
    for (const path of request.readOnlyPaths ?? []) assertAbsolute(path, 'a path bound into a sandbox');
    assertAbsolute(request.cwd, 'a sandbox\'s working directory');
    const environment = this.environment;
    if (!environment) {
      const wrapped: WrappedCommand = { command: LOWER_PRIORITY[0]!, args: [...LOWER_PRIORITY.slice(1), request.command, ...request.args], identity: {}, sandboxed: false };
      return { wrapped, handOver: async () => undefined, release: () => undefined };
    }
    const uid = environment.identity === 'user-namespace' ? undefined : this.users.lend();
    let released = false;
    const release = () => {
      if (released || uid === undefined) return;
      released = true;
      this.users.giveBack(uid);
    };
    try {
      if (uid !== undefined) for (const dir of request.writableDirs) await chownTree(dir, uid);
      const identity: SandboxIdentity = environment.identity === 'user-namespace' ? { kind: 'user-namespace' } : { kind: environment.identity, uid: uid! };
      const args = bubblewrapArguments(environment.layout, {
        command: request.command,
        args: request.args,
        identity,
        binds: [...request.writableDirs.map((path) => ({ path, writable: true })), ...(request.readOnlyPaths ?? []).map((path) => ({ path, writable: false }))],
        cwd: request.cwd,
        limits: request.limits,
        passwd: SANDBOX_PASSWD,
        group: SANDBOX_GROUP,
        seccompFd: environment.arch ? SECCOMP_FD : undefined,
        statusFd: STATUS_FD,
      });
      const wrapped: WrappedCommand = {
        command: LOWER_PRIORITY[0]!,
        args: [...LOWER_PRIORITY.slice(1), environment.bwrap, ...args],
        identity: identity.kind === 'own-user-namespace' ? { uid: identity.uid, gid: identity.uid } : {},
        seccomp: environment.arch ? this.filter(environment.arch, request.sockets) : undefined,
        sandboxed: true,
      };
      return { wrapped, handOver: async (path) => (uid === undefined ? undefined : chownTree(path, uid)), release };
    } catch (error) {
      release();
      throw error;
    }
  }

  /** How many sandbox users are lent right now (tests: every one comes back). */
  get usersLent(): number {
    return this.users.inUse;
  }

  /** A trial run in a directory of each root engines will work in (the jobs' scratch root…); the first problem. */
  private static async trialRuns(environment: Environment, roots: readonly string[]): Promise<string | undefined> {
    for (const root of roots) {
      // A worker killed during its trial left its directory: the next one to start removes it.
      await sweepOrphanDirectories(root, TRIAL_PREFIX).catch(() => undefined);
      const problem = await EngineSandbox.trialRun(environment, root);
      if (problem) return `in ${root}: ${problem}`;
    }
    return undefined;
  }

  /** Runs `true` the way every engine will run, in a directory of its own; a problem, or undefined when it ran. */
  private static async trialRun(environment: Environment, root: string): Promise<string | undefined> {
    const sandbox = new EngineSandbox({ setting: 'required', sandboxed: true, layers: { namespaces: true, seccomp: Boolean(environment.arch), separateUser: environment.identity !== 'user-namespace' }, description: 'trial' }, environment);
    const dir = await ownedDirectory(root, TRIAL_PREFIX);
    try {
      const prepared = await sandbox.prepare({ command: '/usr/bin/true', args: [], writableDirs: [dir], cwd: dir, limits: { memoryBytes: 256 * 1024 ** 2, residentBytes: 256 * 1024 ** 2, cpuSeconds: 5, processes: 16, openFiles: 64, fileBytes: 1024 }, sockets: 'unix-only' });
      try {
        const { child, report } = spawnWrapped(prepared.wrapped, { cwd: dir, env: { PATH: '/usr/bin:/bin' } });
        let stderr = '';
        child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
        child.stdout!.resume();
        const timer = setTimeout(() => child.kill('SIGKILL'), CHECK_PATIENCE_MS);
        const [exitCode, { childPid }] = await Promise.all([
          new Promise<number | null>((resolve) => {
            child.once('error', (error) => {
              stderr += error.message;
              resolve(null);
            });
            child.once('close', (code) => resolve(code));
          }),
          report,
        ]).finally(() => clearTimeout(timer));
        if (childPid !== undefined && exitCode === 0) return undefined;
        return stderr.trim().split('\n').pop() || `exit ${exitCode}`;
      } finally {
        prepared.release();
      }
    } catch (error) {
      return (error as Error).message;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  private filter(arch: SeccompArch, sockets: SocketPolicy): Buffer {
    let filter = this.filters.get(sockets);
    if (!filter) this.filters.set(sockets, (filter = compileSeccompFilter(arch, engineSyscallRules(sockets))));
    return filter;
  }
}

/** Directories shared by everything on the machine: never an engine's writable place (nor handed to its user). */
const SHARED_DIRECTORIES = new Set(['/', '/tmp', '/var/tmp', '/dev/shm', '/root', '/home']);

/** A writable place must be a directory of the job's or instance's own, not a shared one such as the temp root. */
function assertOwnDirectory(dir: string): void {
  const normalized = resolve(dir);
  if (SHARED_DIRECTORIES.has(normalized) || normalized === machineTempDir() || normalized === resolve(homedir())) {
    throw new Error(`${normalized} is shared by the whole machine: an engine's writable directory must be its job's own`);
  }
}

/** Gives `uid` a directory and everything in it (a root worker's files are otherwise out of the engine's reach). */
async function chownTree(path: string, uid: number): Promise<void> {
  const stats = await lstat(path).catch(() => undefined);
  if (!stats) return;
  if (stats.uid !== uid || stats.gid !== uid) await lchown(path, uid, uid);
  if (!stats.isDirectory()) return;
  const entries = await readdir(path).catch(() => [] as string[]);
  await Promise.all(entries.map((entry) => chownTree(join(path, entry), uid)));
}

async function findExecutable(name: string): Promise<string | undefined> {
  for (const dir of ['/usr/bin', '/bin', '/usr/local/bin']) {
    const path = join(dir, name);
    if (await access(path, constants.X_OK).then(() => true, () => false)) return path;
  }
  return undefined;
}

let machineSandbox: Promise<EngineSandbox> | undefined;

/**
 * The sandbox of runners made without one (tests, installation checks): this machine's, probed once, and
 * `required` — where it cannot hold, they fail loudly instead of running engines unsandboxed. A worker makes its
 * own from its configuration (ENGINE_SANDBOX).
 */
export function defaultEngineSandbox(): Promise<EngineSandbox> {
  return (machineSandbox ??= EngineSandbox.start('required'));
}

