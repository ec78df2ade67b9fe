import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { apiOfRequest } from './api-of-request.js';
import { errorBodyFor } from './error-body.js';
import { toPublicError } from './to-public-error.js';

/**
 * The HTTP server's `checkExpectation` listener. Node answers a request whose `Expect` header is not
 * `100-continue` itself, before the app sees it: 417 with an empty body and no content type. Here the
 * 417 is an error like any other — JSON in the shape of the API its path names, with a request id,
 * quoting nothing of the request. (The unread body is discarded by Node once the answer is sent.)
 */
export function answerUnmetExpectation(request: IncomingMessage, response: ServerResponse): void {
  const api = apiOfRequest({ routePattern: undefined, url: request.url ?? '/' });
  const body = JSON.stringify(errorBodyFor(api, toPublicError({ statusCode: 417 })));
  response.writeHead(417, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'x-request-id': randomUUID(),
  });
  response.end(body);
}
