import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { ConnectionError } from 'fastify';
import type { Logger } from 'pino';
import { clientErrorResponse } from './client-error-response.js';

/** The part of a socket's in-flight response the handler looks at (Node's own handler reads the same). */
interface SocketWithResponse {
  _httpMessage?: { headersSent?: boolean } | null;
}

/**
 * Fastify's `clientErrorHandler`: errors Node raises while reading a request off the socket, which the
 * app never sees as errors of its own — malformed HTTP (in the head or a chunked body), oversized
 * headers, a request that did not arrive in time. It answers in the shape of the request's API (see
 * `clientErrorResponse`) and closes the socket.
 */
export function createClientErrorHandler(logger: Logger): (error: ConnectionError, socket: Socket) => void {
  return (error, socket) => {
    // A reset connection, or one already gone, has nobody to answer (as Fastify and Node do).
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const requestId = randomUUID();
    // The code only: the error's rawPacket holds the request's bytes, Api-Key header included.
    logger.debug({ requestId, code: error.code }, 'client error');
    const responseStarted = (socket as unknown as SocketWithResponse)._httpMessage?.headersSent === true;
    // Writing after a response has begun would corrupt it; then the socket is only closed.
    if (socket.writable && !responseStarted) socket.write(clientErrorResponse(error, requestId));
    socket.destroy();
  };
}
