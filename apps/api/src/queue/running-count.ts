/** How many tasks are running, and a promise of the moment none is. */
export class RunningCount {
  private running = 0;
  private waiters: Array<() => void> = [];

  async run<T>(task: () => Promise<T>): Promise<T> {
    this.running++;
    try {
      return await task();
    } finally {
      if (--this.running === 0) for (const resolve of this.waiters.splice(0)) resolve();
    }
  }

  /** How many run now. */
  get size(): number {
    return this.running;
  }

  /** Resolves once nothing runs (at once when nothing does). */
  idle(): Promise<void> {
    return this.running === 0 ? Promise.resolve() : new Promise((resolve) => this.waiters.push(resolve));
  }
}
