/** One warm engine process of a pool: serves one request at a time, ends when killed, worn or stopped. */
export interface WarmProcess {
  readonly ended: boolean;
  /** Requests it has served. */
  readonly requests: number;
  stop(): Promise<void>;
  /** Synchronous last resort (the worker's exit). */
  killNow(): void;
}

export interface WarmPoolConfig<P extends WarmProcess> {
  /** Processes running at once, each one request at a time. */
  size: number;
  /** A process is replaced after this many requests. */
  maxRequests: number;
  /** Starts a process and resolves once it serves; rejects with why it could not. */
  spawn(): Promise<P>;
  /** Called when the pool first starts (sweeping what a killed worker's processes left). */
  onBegin?(): void;
  /** The failure waiting requests get when the pool stops. */
  stopping(): Error;
}

/**
 * Warm engine processes (the Node host, Chromium): up to `size`, started when first needed or by `start()`, each
 * serving one request at a time, replaced when they die, are killed by a limit, or have served `maxRequests`.
 * Requests wait their turn in order.
 */
export class WarmPool<P extends WarmProcess> {
  private readonly processes = new Set<Slot<P>>();
  private idle: Array<Slot<P>> = [];
  private waiters: Array<{ resolve: (slot: Slot<P>) => void; reject: (error: Error) => void }> = [];
  private running = false;
  /** Processes being started: a stop waits for them, so that none outlives the pool (nor writes in a removed directory). */
  private readonly starting = new Set<Promise<P>>();
  private readonly exitHook = () => {
    for (const slot of this.processes) slot.process?.killNow();
  };

  constructor(private readonly config: WarmPoolConfig<P>) {}

  /** Starts the processes in the background; never rejects. */
  async start(): Promise<void> {
    this.begin();
    const starting: Array<Promise<unknown>> = [];
    while (this.processes.size < this.config.size) starting.push(this.spawn().then((slot) => this.offer(slot), () => undefined));
    await Promise.allSettled(starting);
  }

  async stop(): Promise<void> {
    this.running = false;
    const stopping = this.config.stopping();
    for (const waiter of this.waiters.splice(0)) waiter.reject(stopping);
    this.idle = [];
    await Promise.allSettled([...this.starting]);
    await Promise.all([...this.processes].map((slot) => slot.process?.stop()));
    this.processes.clear();
    process.off('exit', this.exitHook);
  }

  /** Runs `use` on a process of the pool, its own while it runs. */
  async with<T>(use: (process: P) => Promise<T>): Promise<T> {
    const slot = await this.acquire();
    try {
      return await use(slot.process);
    } finally {
      this.release(slot);
    }
  }

  /** The processes alive now (tests, metrics). */
  get live(): P[] {
    return [...this.processes].map((slot) => slot.process).filter((process): process is P => process !== undefined && !process.ended);
  }

  private begin(): void {
    if (this.running) return;
    this.running = true;
    process.on('exit', this.exitHook);
    this.config.onBegin?.();
  }

  private async acquire(): Promise<Slot<P>> {
    this.begin();
    for (let idle = this.idle.pop(); idle; idle = this.idle.pop()) {
      // One that died while idle is not offered: it goes, and the pool has room for another.
      if (!idle.process.ended) return idle;
      this.processes.delete(idle);
    }
    if (this.processes.size < this.config.size) return this.spawn();
    return new Promise<Slot<P>>((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  private release(slot: Slot<P>): void {
    if (slot.process.ended || slot.process.requests >= this.config.maxRequests) {
      this.retire(slot);
      return;
    }
    this.offer(slot);
  }

  private offer(slot: Slot<P>): void {
    if (!this.running) return void slot.process.stop();
    const waiter = this.waiters.shift();
    if (waiter) waiter.resolve(slot);
    else this.idle.push(slot);
  }

  /** A dead or worn process goes; a waiting request gets a fresh one. */
  private retire(slot: Slot<P>): void {
    this.processes.delete(slot);
    void slot.process.stop();
    if (this.waiters.length > 0 && this.running) {
      void this.spawn().then(
        (fresh) => this.offer(fresh),
        (error: Error) => this.waiters.shift()?.reject(error),
      );
    }
  }

  private async spawn(): Promise<Slot<P>> {
    // Counted from the start, so that concurrent requests do not start more processes than the pool holds.
    const slot = { process: undefined } as unknown as Slot<P>;
    this.processes.add(slot);
    const starting = this.config.spawn();
    this.starting.add(starting);
    try {
      slot.process = await starting;
      return slot;
    } catch (error) {
      this.processes.delete(slot);
      throw error;
    } finally {
      this.starting.delete(starting);
    }
  }
}

interface Slot<P> {
  process: P;
}
