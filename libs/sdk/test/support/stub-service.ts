import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StubRequest {
  method: string;
  path: string;
  /** The query string, without its `?`. */
  query: string;
  headers: Record<string, string | string[] | undefined>;
}

export interface StubAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

/**
 * A stand-in for the service at its HTTP boundary, for client logic only (polling, waits, errors):
 * answers each request with `answer(request)` as JSON and records the requests it got.
 */
export async function startStubService(answer: (request: StubRequest) => StubAnswer) {
  const requests: StubRequest[] = [];
  const server = createServer((incoming, outgoing) => {
    incoming.resume();
    incoming.on('end', () => {
      const url = new URL(incoming.url ?? '/', 'http://stub');
      const request = { method: incoming.method ?? 'GET', path: url.pathname, query: url.search.slice(1), headers: incoming.headers };
      requests.push(request);
      const { status, headers = {}, body } = answer(request);
      outgoing.writeHead(status, { 'content-type': 'application/json', ...headers });
      outgoing.end(body === undefined ? '' : JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers in turn; the last one again once they run out. */
export function inTurn(...answers: StubAnswer[]): () => StubAnswer {
  let next = 0;
  return () => answers[Math.min(next++, answers.length - 1)]!;
}
