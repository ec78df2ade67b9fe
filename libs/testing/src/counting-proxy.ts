import { connect, createServer, type Server, type Socket } from 'node:net';

/** A TCP proxy that counts the bytes clients send through it; pointed at another upstream, it drops its connections. */
export async function countingProxy(upstream: string) {
  let target = new URL(upstream);
  let sent = 0;
  const open = new Set<Socket>();
  const server: Server = createServer((socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    const out = connect(Number(target.port), target.hostname);
    socket.on('data', (chunk: Buffer) => (sent += chunk.length));
    socket.pipe(out).pipe(socket);
    socket.on('error', () => out.destroy());
    out.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    sent: () => sent,
    pointAt: (next: string) => {
      target = new URL(next);
      for (const socket of open) socket.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
