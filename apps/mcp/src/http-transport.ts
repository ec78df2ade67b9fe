import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { HostCheck } from './host-check.js';

const MAX_BODY_BYTES = 64 * 1024 * 1024;

/**
 * Streamable HTTP on `/mcp` with stateful sessions: an initialize request opens a session (its own
 * McpServer from `newServer`), later requests carry `Mcp-Session-Id`, DELETE ends it. There is no
 * authentication: it listens on loopback only, and refuses requests whose Host or Origin names
 * another site (DNS rebinding).
 */
export async function serveHttp(newServer: () => McpServer, port: number, host = '127.0.0.1'): Promise<{ server: Server; url: string; close: () => Promise<void> }> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const address = server.address() as { port: number };
  // Built once the port is known (port 0 picks one); requests are handled only from here on.
  const hostCheck = new HostCheck(address.port, host);

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const refusal = hostCheck.refusal(request);
    if (refusal) return respond(response, 403, refusal);
    if (new URL(request.url ?? '/', 'http://localhost').pathname !== '/mcp') return respond(response, 404, 'Not found: the MCP endpoint is /mcp');
    const sessionId = header(request, 'mcp-session-id');
    const body = request.method === 'POST' ? await readJson(request) : undefined;
    if (body instanceof Error) return respond(response, 400, body.message);
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
    url: `http://${host}:${address.port}/mcp`,
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
    if (size > MAX_BODY_BYTES) return new Error(`Request body over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return new Error('The body is not JSON');
  }
}

function respond(response: ServerResponse, status: number, message: string): void {
  if (response.headersSent) return void response.end();
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}
