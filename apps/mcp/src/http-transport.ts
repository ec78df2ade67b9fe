import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { BearerAuth } from './bearer-auth.js';
import { type AllowedNames, HostCheck } from './host-check.js';

const MAX_BODY_BYTES = 64 * 1024 * 1024;
/** JSON-RPC 2.0: the body is not JSON. */
const PARSE_ERROR = -32700;

export interface HttpOptions {
  port: number;
  /** The bind address; anything but loopback needs `bearerToken` (the configuration enforces it). */
  host?: string;
  /** Host and Origin values accepted beside the loopback names (a remote host's public name). */
  allowed?: AllowedNames;
  /** When set, every request must carry `Authorization: Bearer <token>`. */
  bearerToken?: string | null;
}

/**
 * Streamable HTTP on `/mcp` with stateful sessions: an initialize request opens a session (its own
 * McpServer from `newServer`), later requests carry `Mcp-Session-Id`, DELETE ends it. Requests whose
 * Host or Origin names another site are refused first (DNS rebinding), then requests without the
 * bearer token, when one is configured.
 */
export async function serveHttp(newServer: () => McpServer, { port, host = '127.0.0.1', allowed, bearerToken }: HttpOptions): Promise<{ server: Server; url: string; close: () => Promise<void> }> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const address = server.address() as { port: number };
  // Built once the port is known (port 0 picks one); requests are handled only from here on.
  const hostCheck = new HostCheck(address.port, host, allowed);
  const auth = bearerToken ? new BearerAuth(bearerToken) : null;

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const refusal = hostCheck.refusal(request);
    if (refusal) return respond(response, 403, refusal);
    const unauthorized = auth?.refusal(request);
    if (unauthorized) {
      response.setHeader('www-authenticate', unauthorized.challenge);
      return respond(response, 401, unauthorized.message);
    }
    if (new URL(request.url ?? '/', 'http://localhost').pathname !== '/mcp') return respond(response, 404, 'Not found: the MCP endpoint is /mcp');
    const sessionId = header(request, 'mcp-session-id');
    const body = request.method === 'POST' ? await readJson(request) : undefined;
    if (body instanceof BodyError) return respond(response, body.status, body.message, body.code);
    let transport = sessionId ? sessions.get(sessionId) : undefined;
    if (!transport) {
      if (sessionId) return respond(response, 404, 'Unknown or expired session; initialize a new one');
      if (!isInitializeRequest(body)) return respond(response, 400, 'Start with an initialize request (no Mcp-Session-Id yet)');
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void sessions.set(id, created),
      });
      created.onclose = () => created.sessionId && sessions.delete(created.sessionId);
      await newServer().connect(created);
      transport = created;
    }
    await transport.handleRequest(request, response, body);
  };

  server.on('request', (request, response) => {
    handle(request, response).catch((error: unknown) => respond(response, 500, `MCP transport error: ${(error as Error).message}`));
  });
  return {
    server,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${address.port}/mcp`,
    async close() {
      await Promise.all([...sessions.values()].map((transport) => transport.close()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return new BodyError(413, -32600, `Request body over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return new BodyError(400, PARSE_ERROR, 'Parse error: the body is not JSON');
  }
}

/** A body that cannot be a JSON-RPC message, with the JSON-RPC error code that says why. */
class BodyError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

function respond(response: ServerResponse, status: number, message: string, code = -32000): void {
  if (response.headersSent) return void response.end();
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
