import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  /** Header names lower-cased; a repeated header keeps its last value. */
  headers: Record<string, string>;
  body: string;
  /** Everything the server sent, status line and headers included. */
  raw: string;
}

/**
 * Sends `request` byte for byte over a fresh TCP connection (in one write, so the server reads it as
 * one packet) and reads until the server closes it: requests that no HTTP client would send.
 */
export function rawRequest(port: number, request: string | Buffer, timeoutMs = 10_000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    socket.on('connect', () => socket.write(request));
    socket.on('data', (chunk) => chunks.push(chunk));
    // A reset after the answer arrived (the server closes with bytes of ours unread) is no failure.
    socket.on('error', (error) => {
      if (chunks.length === 0) reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      if (chunks.length === 0) return reject(new Error('connection closed without an answer'));
      try {
        resolve(parseAnswer(Buffer.concat(chunks).toString('utf8')));
      } catch (error) {
        reject(error as Error);
      }
    });
  });
}

function parseAnswer(raw: string): RawAnswer {
  const headEnd = raw.indexOf('\r\n\r\n');
  if (headEnd < 0) throw new Error(`not an HTTP response: ${JSON.stringify(raw.slice(0, 200))}`);
  const [statusLine, ...lines] = raw.slice(0, headEnd).split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '');
  if (!status) throw new Error(`not a status line: ${JSON.stringify(statusLine)}`);
  const headers = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(':')).trim().toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  if (headers['transfer-encoding']) throw new Error('chunked answers are not expected here');
  return { status: Number(status[1]), headers, body: raw.slice(headEnd + 4), raw };
}
