import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { ConnectionError } from 'fastify';
import type { Logger } from 'pino';
import { clientErrorResponse } from './client-error-response.js';

/** The part of a socket's in-flight response the handler looks at (Node's own handler reads the same). */
interface SocketWithResponse {
  _httpMessage?: {
    headersSent?: boolean;
    writableFinished?: boolean;
    /** The request it answers: `complete` once its body was read to the end. */
    req?: { complete?: boolean };
    once(event: 'finish', listener: () => void): unknown;
  } | null;
}

/** How long the answer to an earlier request on the connection may take before the socket is closed unanswered. */
const IN_FLIGHT_GRACE_MS = 30_000;

/**
 * Fastify's `clientErrorHandler`: errors Node raises while reading a request off the socket, which the
 * app never sees as errors of its own — malformed HTTP (in the head or a chunked body), oversized
 * headers, a request that did not arrive in time. It answers in the shape of the request's API (see
 * `clientErrorResponse`) and closes the socket.
 *
 * When the answer to an earlier request on the same keep-alive connection is still being written (a
 * streamed download whose client already has every byte and sent its next request, or a pipelined
 * request still in its handler), the error answer waits for it: written at once it would corrupt that
 * answer, or take its place as the answer to the earlier request. An error in the body of the request
 * being answered (a bad chunk) is answered at once, unless its answer has begun.
 */
export function createClientErrorHandler(logger: Logger): (error: ConnectionError, socket: Socket) => void {
  return (error, socket) => {
    // A reset connection, or one already gone, has nobody to answer (as Fastify and Node do).
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const requestId = randomUUID();
    // The code only: the error's rawPacket holds the request's bytes, Api-Key header included.
    logger.debug({ requestId, code: error.code }, 'client error');
    const answer = () => {
      if (socket.writable) socket.write(clientErrorResponse(error, requestId));
      socket.destroy();
    };
    const inFlight = (socket as unknown as SocketWithResponse)._httpMessage;
    if (!inFlight || inFlight.writableFinished) return answer();
    if (inFlight.req?.complete) {
      // The answer to an earlier request, received whole, is still being written: the error's answer follows it.
      const giveUp = setTimeout(() => socket.destroy(), IN_FLIGHT_GRACE_MS).unref();
      socket.once('close', () => clearTimeout(giveUp));
      inFlight.once('finish', () => {
        clearTimeout(giveUp);
        if (!socket.destroyed) answer();
      });
      return;
    }
    // The error is in this request's own body (chunked encoding, a timeout). Its answer may not have begun: then
    // the error's answer replaces it; once begun, writing would corrupt it, and the socket is only closed.
    if (inFlight.headersSent) socket.destroy();
    else answer();
  };
}
