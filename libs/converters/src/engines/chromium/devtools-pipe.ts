import type { Readable, Writable } from 'node:stream';

/** A DevTools protocol event: its method, parameters and the session (page) it came from. */
export interface DevToolsEvent {
  method: string;
  params: Record<string, unknown>;
  sessionId?: string;
}

type Pending = { resolve: (result: Record<string, unknown>) => void; reject: (error: Error) => void; method: string };

/** A DevTools protocol answer that is an error (Chromium refused the command). */
export class DevToolsError extends Error {
  constructor(method: string, message: string) {
    super(`${method}: ${message}`);
    this.name = 'DevToolsError';
  }
}

/**
 * The DevTools protocol over Chromium's `--remote-debugging-pipe`: JSON messages ended by a NUL byte, commands on
 * one pipe, answers and events on the other. No socket: the browser's sandbox has no network of its own to offer one.
 */
export class DevToolsPipe {
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Set<(event: DevToolsEvent) => void>();
  private buffered: Buffer[] = [];
  private closedWith?: Error;

  constructor(
    private readonly commands: Writable,
    answers: Readable,
  ) {
    commands.on('error', (error: Error) => this.close(error));
    answers.on('data', (chunk: Buffer) => this.heard(chunk));
    answers.on('error', (error: Error) => this.close(error));
    answers.on('close', () => this.close(new Error('the browser closed its DevTools pipe')));
  }

  /** Sends a command (to a page's session when given) and resolves with its result. */
  send<T = Record<string, unknown>>(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<T> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    const id = ++this.nextId;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (result: Record<string, unknown>) => void, reject, method });
      this.commands.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    });
  }

  /** Calls `listener` with every event until the returned function is called. */
  listen(listener: (event: DevToolsEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Every command waiting fails with `error`; later ones too. */
  close(error: Error): void {
    if (this.closedWith) return;
    this.closedWith = error;
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }

  private heard(chunk: Buffer): void {
    let end = chunk.indexOf(0);
    if (end < 0) return void this.buffered.push(chunk);
    let message = Buffer.concat([...this.buffered, chunk.subarray(0, end)]).toString('utf8');
    this.buffered = [];
    for (;;) {
      this.dispatch(message);
      const start = end + 1;
      end = chunk.indexOf(0, start);
      if (end < 0) {
        if (start < chunk.length) this.buffered.push(chunk.subarray(start));
        return;
      }
      message = chunk.subarray(start, end).toString('utf8');
    }
  }

  private dispatch(text: string): void {
    let message: { id?: number; result?: Record<string, unknown>; error?: { message: string }; method?: string; params?: Record<string, unknown>; sessionId?: string };
    try {
      message = JSON.parse(text) as typeof message;
    } catch {
      return;
    }
    if (message.id !== undefined) {
      const pending = this.pending.get(message.id);
      if (!pending) return;
      this.pending.delete(message.id);
      if (message.error) pending.reject(new DevToolsError(pending.method, message.error.message));
      else pending.resolve(message.result ?? {});
      return;
    }
    if (message.method) for (const listener of this.listeners) listener({ method: message.method, params: message.params ?? {}, sessionId: message.sessionId });
  }
}
