import type { FastifyReply } from 'fastify';

/** Aborts when the client goes away before its answer was written: a request that waits stops waiting for nobody. */
export function clientGoneSignal(reply: FastifyReply): AbortSignal {
  const gone = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) gone.abort();
  });
  return gone.signal;
}
