import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Gateway {
  url: string;
  /** How many requests each upstream was given, in the order of `upstreams`. */
  requestsPerUpstream(): number[];
  close(): Promise<void>;
}

/**
 * The compose gateway's part, as a process stands in for nginx: each request goes to the next upstream in
 * turn, bodies streamed both ways (nothing buffered), with the X-Forwarded-* headers nginx adds.
 */
export async function startRoundRobinGateway(upstreams: readonly string[]): Promise<Gateway> {
  const counts = upstreams.map(() => 0);
  let next = 0;
  const server: Server = createServer((incoming, outgoing) => {
    const index = next++ % upstreams.length;
    counts[index]!++;
    const target = new URL(upstreams[index]!);
    const forwardedFor = [incoming.headers['x-forwarded-for'], incoming.socket.remoteAddress].filter(Boolean).join(', ');
    const proxied = request(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, 'x-forwarded-for': forwardedFor, 'x-forwarded-proto': 'http' },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(outgoing);
      },
    );
    proxied.on('error', () => {
      if (!outgoing.headersSent) outgoing.writeHead(502, { 'content-type': 'text/plain' });
      outgoing.end('bad gateway');
    });
    // A client that stops mid-upload is passed on as such, as nginx does with unbuffered bodies.
    incoming.on('aborted', () => proxied.destroy());
    incoming.pipe(proxied);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requestsPerUpstream: () => [...counts],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
