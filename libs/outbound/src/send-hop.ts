import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { SecureContextOptions } from 'node:tls';
import { OutboundError, OutboundErrorCode } from './outbound-error.js';
import { pinnedLookup } from './pinned-lookup.js';
import type { HopRequest } from './redirect-rules.js';
import type { CheckedAnswer } from './resolve-host.js';
import type { TargetUrl } from './target-url.js';
import { toOutboundError } from './transport-error.js';

export interface Hop {
  response: IncomingMessage;
  /**
   * Settles when the connection has closed: rejects when Node's HTTP stack failed after the response was handed
   * over, e.g. bytes past the declared Content-Length, which Node reports on the request, not the response.
   */
  closed: Promise<void>;
  /** Stops the hop now: with `error`, the reason every stream of it fails with; without, it is just dropped. */
  destroy(error?: Error): void;
}

export interface HopLimits {
  idleTimeoutMs: number;
  signal: AbortSignal;
  ca?: SecureContextOptions['ca'];
}

/**
 * Sends one request to the checked target, connecting only to the checked answers; resolves with the response
 * head. A fresh connection each time (`agent: false`): a pooled one could outlive the check that allowed it.
 */
export function sendHop(target: TargetUrl, answers: readonly CheckedAnswer[], request: HopRequest, limits: HopLimits): Promise<Hop> {
  return new Promise((resolve, reject) => {
    const transport = target.url.protocol === 'https:' ? https : http;
    const body = request.body === undefined ? undefined : Buffer.from(request.body);
    const req = transport.request({
      protocol: target.url.protocol,
      host: target.host,
      port: target.port,
      path: `${target.url.pathname}${target.url.search}`,
      method: request.method,
      headers: { ...request.headers, ...(body ? { 'content-length': String(body.length) } : {}) },
      agent: false,
      lookup: pinnedLookup(answers),
      // The socket's idle timer, from before the connection is made to the last byte of the body.
      timeout: limits.idleTimeoutMs,
      ca: limits.ca,
    });
    let response: IncomingMessage | undefined;
    let failure: OutboundError | undefined;
    const destroy = (error?: Error) => {
      response?.destroy(error);
      req.destroy(error);
    };
    const onAbort = () => destroy(limits.signal.reason as Error);
    limits.signal.addEventListener('abort', onAbort, { once: true });
    const closed = new Promise<void>((resolveClosed, rejectClosed) =>
      req.once('close', () => {
        limits.signal.removeEventListener('abort', onAbort);
        if (failure) rejectClosed(failure);
        else resolveClosed();
      }),
    );
    // Seen (and reported) by whoever reads the body; never left unhandled when nobody does.
    closed.catch(() => {});
    req.on('timeout', () => destroy(new OutboundError(OutboundErrorCode.IdleTimeout, `The server sent nothing for ${limits.idleTimeoutMs / 1000} s`)));
    req.on('error', (error) => {
      failure ??= toOutboundError(error, { responseStarted: response !== undefined });
      if (!response) reject(failure);
      else response.destroy(failure);
    });
    req.on('response', (incoming) => {
      response = incoming;
      // Its errors reach whoever reads the body (the pipeline listens); a response dropped unread must not crash.
      incoming.on('error', () => {});
      resolve({ response: incoming, closed, destroy });
    });
    if (limits.signal.aborted) onAbort();
    else req.end(body);
  });
}
