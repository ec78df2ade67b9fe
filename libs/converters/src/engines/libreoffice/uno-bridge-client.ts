import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/**
 * The Python script, shipped beside this module: in `src/` for the sources and tests, copied to `dist/` by the
 * package's build script.
 */
export const UNO_BRIDGE_SCRIPT = fileURLToPath(new URL('./uno-bridge.py', import.meta.url));

/** One conversion as the bridge takes it (see uno-bridge.py). */
export interface BridgeRequest {
  input: string;
  output: string;
  family: string;
  filter: string;
  filterOptions?: string;
  exportData?: Record<string, string | number | boolean>;
  importFilter?: string;
  importFilterOptions?: string;
  /** Refuse (`format`) an input type detection read with a filter not starting with one of these. */
  acceptImports?: readonly string[];
  /** Refuse (`too_many_pages`) when the export would render more pages. */
  maxPages?: number;
}

export type BridgeFailureKind = 'load' | 'family' | 'format' | 'too_many_pages' | 'no_pages' | 'store' | 'dead' | 'disconnected' | 'request';

export type BridgeReply = { ok: true; importedWith?: string; pages?: number } | { ok: false; kind: BridgeFailureKind; error: string; pages?: number };

/** How the bridge is started: Debian's Python, our script, the instance's pipe, and soffice's command line. */
export interface BridgeLaunch {
  python: string;
  pipeName: string;
  connectTimeoutMs: number;
  /** Should Node die without stopping the instance, the bridge (its stdin closed) removes this directory. */
  instanceDir: string;
  /** soffice and its arguments: the bridge starts it, in the same sandbox. */
  office: readonly string[];
  script?: string;
}

/** The bridge's command line (the instance runs it in its sandbox). */
export function bridgeCommand(launch: BridgeLaunch): { command: string; args: string[]; script: string } {
  const script = launch.script ?? UNO_BRIDGE_SCRIPT;
  return {
    command: launch.python,
    args: ['-I', script, '--pipe', launch.pipeName, '--connect-timeout-ms', String(launch.connectTimeoutMs), '--instance-dir', launch.instanceDir, '--', ...launch.office],
    script,
  };
}

/** Where what the bridge and soffice say is kept (the instance's daemon reads their stderr). */
export interface BridgeDiagnostics {
  readonly stderr: string;
  noteDiagnostics(text: string): void;
}

/**
 * The bridge process (spawned by the instance, in its sandbox) and its JSON-lines protocol: one request at a time,
 * answered in order.
 */
export class UnoBridgeClient {
  /** How soffice ended, as the bridge saw it (negative: the signal), once it has. */
  officeExitCode?: number;
  private nextId = 0;
  private pending?: { id: string; resolve: (reply: BridgeReply) => void; reject: (error: Error) => void };
  private exited = false;
  /** Resolves with the office version once connected; rejects when the bridge fails or exits first. */
  readonly ready: Promise<string>;
  /** Resolves when the process has exited, however. */
  readonly exit: Promise<void>;

  constructor(
    private readonly child: ChildProcess,
    private readonly diagnostics: BridgeDiagnostics,
  ) {
    // A write to a bridge that just died must not become an unhandled error.
    this.child.stdin!.on('error', () => undefined);

    let onReady!: (version: string) => void;
    let onFailed!: (error: Error) => void;
    this.ready = new Promise<string>((resolve, reject) => {
      onReady = resolve;
      onFailed = reject;
    });
    this.ready.catch(() => undefined);
    this.exit = new Promise<void>((resolve) => {
      this.child.once('close', () => resolve());
      this.child.once('error', () => resolve());
    });
    this.child.once('error', (error) => onFailed(new Error(`the bridge could not start: ${error.message}`)));
    void this.exit.then(() => {
      this.exited = true;
      onFailed(new Error(`the bridge exited before it was ready: ${this.stderrTail()}`));
      this.pending?.reject(new Error('the bridge exited during the conversion'));
      this.pending = undefined;
    });

    createInterface({ input: this.child.stdout! }).on('line', (line) => {
      let message: { event?: string; version?: string; error?: string; id?: string | null } & Record<string, unknown>;
      try {
        message = JSON.parse(line);
      } catch {
        this.diagnostics.noteDiagnostics(`\n(stdout) ${line}`);
        return;
      }
      if (message.event === 'ready') onReady(String(message.version ?? 'LibreOffice'));
      else if (message.event === 'office-exited') this.officeExitCode = Number(message.code);
      else if (message.event === 'failed') onFailed(new Error(`the bridge could not connect: ${message.error ?? ''}`));
      else if (this.pending && message.id === this.pending.id) {
        const { resolve } = this.pending;
        this.pending = undefined;
        resolve(message as unknown as BridgeReply);
      }
    });
  }

  get alive(): boolean {
    return !this.exited;
  }

  stderrTail(): string {
    return this.diagnostics.stderr.trim();
  }

  /** Sends one request; the reply, or a rejection when the bridge exits first. */
  request(request: BridgeRequest): Promise<BridgeReply> {
    if (this.pending) return Promise.reject(new Error('the bridge is busy'));
    if (this.exited) return Promise.reject(new Error('the bridge has exited'));
    const id = String(++this.nextId);
    return new Promise<BridgeReply>((resolve, reject) => {
      this.pending = { id, resolve, reject };
      this.child.stdin!.write(JSON.stringify({ id, ...request }) + '\n');
    });
  }
}
