import { type ChildProcess, spawn } from 'node:child_process';

/** A process of the stack, its output kept (the last 64 KB) for the error that names it. */
export class ServiceProcess {
  private log = '';

  private constructor(
    readonly name: string,
    private readonly child: ChildProcess,
  ) {
    const keep = (chunk: Buffer) => (this.log = (this.log + chunk.toString()).slice(-65_536));
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
  }

  static start(name: string, command: string, args: readonly string[], env: Record<string, string>): ServiceProcess {
    return new ServiceProcess(name, spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] }));
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  output(): string {
    return this.log;
  }

  describeExit(): string {
    return `${this.name} exited (${this.child.exitCode ?? this.child.signalCode}):\n${this.log}`;
  }

  /** SIGTERM, as compose stops a container, then SIGKILL after `graceMs`. */
  async stop(graceMs = 30_000): Promise<void> {
    if (!this.running) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  }
}
