import { createServer, type Server } from 'node:http';
import type { FacilitatorClient } from '@x402/core/server';
import type { SupportedResponse } from '@x402/core/types';

/**
 * A facilitator served over real HTTP (POST /verify, POST /settle, GET /supported), backed by a
 * FacilitatorClient — what FACILITATOR_URL points at in live mode. Extra supported kinds can be
 * advertised (e.g. a Solana network) to see them reach the challenge.
 */
export async function startHttpFacilitator(inner: FacilitatorClient, extraKinds: SupportedResponse['kinds'] = []) {
  const requests: string[] = [];
  const server: Server = createServer(async (request, response) => {
    requests.push(`${request.method} ${request.url}`);
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
    let answer: unknown;
    if (request.url === '/supported') {
      const supported = await inner.getSupported();
      answer = { ...supported, kinds: [...supported.kinds, ...extraKinds] };
    } else if (request.url === '/verify') answer = await inner.verify(body.paymentPayload, body.paymentRequirements);
    else if (request.url === '/settle') answer = await inner.settle(body.paymentPayload, body.paymentRequirements);
    else {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
