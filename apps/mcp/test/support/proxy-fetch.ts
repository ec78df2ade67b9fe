import { request } from 'node:http';
import { Readable } from 'node:stream';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

/**
 * A fetch that stands in for a TLS-terminating reverse proxy: requests for the public URL's origin go
 * to 127.0.0.1:<port> with the public name as Host, as the proxy would forward them. (fetch itself
 * cannot set Host.)
 */
export function throughProxy(publicUrl: string, port: number): FetchLike {
  const publicOrigin = new URL(publicUrl);
  return (input, init) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(String(input));
      if (url.origin !== publicOrigin.origin) return reject(new Error(`the stand-in proxy serves ${publicOrigin.origin} only, not ${url.origin}`));
      const headers = Object.fromEntries(new Headers(init?.headers));
      const outgoing = request({ host: '127.0.0.1', port, path: url.pathname + url.search, method: init?.method ?? 'GET', headers: { ...headers, host: publicOrigin.host } }, (response) => {
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(response.headers)) if (value !== undefined) responseHeaders.set(name, Array.isArray(value) ? value.join(', ') : value);
        const status = response.statusCode ?? 502;
        resolve(new Response(status === 204 ? null : (Readable.toWeb(response) as ReadableStream<Uint8Array>), { status, headers: responseHeaders }));
      });
      outgoing.on('error', reject);
      init?.signal?.addEventListener('abort', () => outgoing.destroy(new Error('aborted')));
      outgoing.end(typeof init?.body === 'string' ? init.body : undefined);
    });
}
