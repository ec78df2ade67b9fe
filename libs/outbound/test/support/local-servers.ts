import { once } from 'node:events';
import http from 'node:http';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';

export interface LocalServer {
  port: number;
  /** Connections accepted so far. */
  connections: number;
  close(): Promise<void>;
}

function track(server: net.Server): LocalServer & { sockets: Set<net.Socket> } {
  const sockets = new Set<net.Socket>();
  const state = {
    port: 0,
    connections: 0,
    sockets,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
  server.on('connection', (socket: net.Socket) => {
    state.connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return state;
}

async function listen<T extends net.Server>(server: T, host: string, port: number): Promise<number> {
  server.listen({ host, port, ipv6Only: false });
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

/** An HTTP server on `host`; every connection is counted. */
export async function startHttpServer(handler: http.RequestListener, host = '127.0.0.1', port = 0): Promise<LocalServer> {
  const server = http.createServer(handler);
  const state = track(server);
  state.port = await listen(server, host, port);
  return state;
}

export async function startHttpsServer(options: https.ServerOptions, handler: http.RequestListener, host = '127.0.0.1'): Promise<LocalServer> {
  const server = https.createServer(options, handler);
  const state = track(server);
  server.on('tlsClientError', () => {});
  state.port = await listen(server, host, 0);
  return state;
}

/** A TCP server that hands each connection's first bytes to `onRequest`, for responses no HTTP server would send. */
export async function startRawServer(onRequest: (socket: net.Socket) => void, host = '127.0.0.1'): Promise<LocalServer> {
  const server = net.createServer((socket) => {
    socket.on('error', () => {});
    socket.once('data', () => onRequest(socket));
  });
  const state = track(server);
  state.port = await listen(server, host, 0);
  return state;
}

/**
 * The canary: it answers nothing and only counts connections. On `::` (both families) it is reached by every
 * loopback address at its port, `0.0.0.0` included, so any hostile URL the guard lets through shows up here.
 */
export async function startCanary(host = '::', port = 0): Promise<LocalServer> {
  const server = net.createServer((socket) => socket.destroy());
  const state = track(server);
  state.port = await listen(server, host, port);
  return state;
}
