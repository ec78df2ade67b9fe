import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { SolanaLedger } from './solana-ledger.js';
import { METHOD_NOT_FOUND, RpcError, solanaRpcMethods } from './solana-rpc-methods.js';

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const INTERNAL_ERROR = -32603;
/** A Solana transaction is at most 1,232 bytes; batches of requests stay far below this. */
const MAX_BODY_BYTES = 1 << 20;

interface RpcRequest {
  jsonrpc?: string;
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

/** Solana JSON-RPC over HTTP on loopback, over one SolanaLedger. Single requests and batches, as a validator takes them. */
export class SolanaRpcFront {
  private readonly methods: ReturnType<typeof solanaRpcMethods>;
  private readonly server: Server;

  constructor(ledger: SolanaLedger) {
    this.methods = solanaRpcMethods(ledger);
    this.server = createServer(async (request, response) => {
      let status = 200;
      let body: string;
      try {
        if (request.method !== 'POST') {
          status = 405;
          body = '';
        } else body = this.answerText(await readBody(request));
      } catch (error) {
        status = 413;
        body = (error as Error).message;
      }
      response.writeHead(status, { 'content-type': 'application/json' }).end(body);
    });
  }

  /** Listens on a free loopback port; resolves to the front's URL. */
  listen(): Promise<string> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(this.server.address() as { port: number }).port}`));
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private answerText(text: string): string {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return toJson(errorAnswer(null, new RpcError(PARSE_ERROR, 'Parse error')));
    }
    if (Array.isArray(parsed)) return toJson(parsed.map((request) => this.answer(request as RpcRequest)));
    return toJson(this.answer(parsed as RpcRequest));
  }

  private answer(request: RpcRequest): unknown {
    const id = request?.id ?? null;
    if (!request || typeof request !== 'object' || request.jsonrpc !== '2.0' || typeof request.method !== 'string') {
      return errorAnswer(id, new RpcError(INVALID_REQUEST, 'Invalid request'));
    }
    const method = Object.hasOwn(this.methods, request.method) ? this.methods[request.method] : undefined;
    if (!method) return errorAnswer(id, new RpcError(METHOD_NOT_FOUND, `Method not found: the dev chain does not serve ${request.method}`));
    try {
      return { jsonrpc: '2.0', id, result: method(Array.isArray(request.params) ? request.params : []) };
    } catch (error) {
      return errorAnswer(id, error instanceof RpcError ? error : new RpcError(INTERNAL_ERROR, `Internal error: ${(error as Error).message}`));
    }
  }
}

function errorAnswer(id: unknown, error: RpcError) {
  return { jsonrpc: '2.0', id, error: { code: error.code, message: error.message, ...(error.data === undefined ? {} : { data: error.data }) } };
}

/** JSON with the ledger's bigints as plain numbers (all of them — lamports, slots, units — fit in a double exactly). */
function toJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? Number(item) : item));
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new Error('request body too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
