import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A delivery as it came: the raw body (what a webhook signature covers) and the headers. */
export interface ReceivedDelivery {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export type DeliveryAnswer = (response: ServerResponse) => void;

export interface WebhookReceiver {
  /** Every delivery, in the order it arrived. */
  readonly received: ReceivedDelivery[];
  /** Resolves once the first delivery is in. */
  readonly first: Promise<void>;
  readonly port: number;
  /** The receiver's URL for `path`. */
  url(path?: string): string;
  /** How deliveries to `path` are answered, one answer each in turn, the last one again after that (default: 204). */
  on(path: string, ...sequence: DeliveryAnswer[]): void;
  /** The deliveries to `path`. */
  at(path: string): ReceivedDelivery[];
  close(): Promise<void>;
}

/** An answer with `code` and `headers`, no body. */
export const answerStatus =
  (code: number, headers: Record<string, string> = {}): DeliveryAnswer =>
  (response) =>
    response.writeHead(code, headers).end();

/** A webhook receiver on 127.0.0.1 (on `port`, or any free one), listening when it is returned. */
export async function startWebhookReceiver(port = 0): Promise<WebhookReceiver> {
  const received: ReceivedDelivery[] = [];
  const answers = new Map<string, DeliveryAnswer[]>();
  let arrived: () => void = () => undefined;
  const first = new Promise<void>((resolve) => (arrived = resolve));
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      received.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      const queue = answers.get(path) ?? [];
      const answer = queue.length > 1 ? queue.shift()! : (queue[0] ?? answerStatus(204));
      answer(response);
      arrived();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const listeningOn = (server.address() as AddressInfo).port;
  return {
    received,
    first,
    port: listeningOn,
    url: (path = '/') => `http://127.0.0.1:${listeningOn}${path}`,
    on: (path, ...sequence) => void answers.set(path, sequence),
    at: (path) => received.filter((delivery) => delivery.path === path),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
