import { custom, RpcRequestError, TimeoutError, type CustomTransport } from 'viem';
import WebSocket from 'ws';

interface Pending {
  resolve(result: unknown): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

interface RpcAnswer {
  id: number;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

/**
 * JSON-RPC over one WebSocket, as a viem transport. viem's own WebSocket transport caches sockets
 * module-wide, keeps a ref'd keep-alive timer and gives up after a few reconnects; this one connects
 * on demand, fails pending requests at once when the socket drops (so an outage is seen at once),
 * reconnects at the next request, and never keeps the process alive on its own.
 */
export class WebSocketRpc {
  private socket: Promise<WebSocket> | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;

  constructor(
    readonly url: string,
    private readonly timeoutMs = 10_000,
  ) {}

  transport(): CustomTransport {
    return custom({ request: ({ method, params }) => this.request(method, params) }, { retryCount: 0 });
  }

  async request(method: string, params: unknown): Promise<unknown> {
    const socket = await this.connect();
    const id = this.nextId++;
    const body = { jsonrpc: '2.0', id, method, params };
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new TimeoutError({ body, url: this.url }));
      }, this.timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      socket.send(JSON.stringify(body), (error) => error && this.settle(id, { id, error: { code: -32603, message: error.message } }, body));
    });
  }

  close(): void {
    this.closed = true;
    void this.socket?.then((socket) => socket.terminate(), () => undefined);
    this.socket = undefined;
  }

  private connect(): Promise<WebSocket> {
    if (this.closed) return Promise.reject(new Error(`the connection to ${this.url} was closed`));
    this.socket ??= new Promise<WebSocket>((resolve, reject) => {
      const socket = new WebSocket(this.url);
      socket.once('open', () => {
        // In-flight requests hold their own timers; an idle socket must not keep the process alive.
        (socket as unknown as { _socket?: { unref(): void } })._socket?.unref();
        resolve(socket);
      });
      // Not once: an error after the first (the connection failing later) must not go unheard and crash the process.
      socket.on('error', (error) => reject(new Error(`cannot reach ${this.url}: ${error.message}`)));
      socket.on('message', (data) => this.receive(String(data)));
      socket.once('close', () => {
        this.socket = undefined;
        for (const [id, pending] of this.pending) {
          clearTimeout(pending.timer);
          this.pending.delete(id);
          pending.reject(new Error(`the connection to ${this.url} closed`));
        }
      });
    });
    const connecting = this.socket;
    connecting.catch(() => {
      if (this.socket === connecting) this.socket = undefined;
    });
    return connecting;
  }

  private receive(message: string): void {
    let answer: RpcAnswer;
    try {
      answer = JSON.parse(message) as RpcAnswer;
    } catch {
      return;
    }
    this.settle(answer.id, answer, { id: answer.id });
  }

  private settle(id: number, answer: RpcAnswer, body: Record<string, unknown>): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    clearTimeout(pending.timer);
    if (answer.error) pending.reject(new RpcRequestError({ body, error: answer.error, url: this.url }));
    else pending.resolve(answer.result);
  }
}
