import { createServer, type Server } from 'node:http';
import { TOKEN_PROGRAM_ADDRESS } from '@x402/svm';
/** A syntactically valid blockhash (32 bytes, base58). */
export const STUB_BLOCKHASH = 'EkSnNWid2cvwEVnVx9aBqawnmiCNiDgp3gUdkDPTKN1N';

/**
 * A Solana JSON-RPC endpoint that knows one thing: every account asked for is an initialised SPL
 * Token mint with `decimals`. It answers getAccountInfo and getLatestBlockhash (what the official client
 * reads to build a payment) and records every call. It is not a chain: nothing here executes.
 */
export async function startSolanaRpcStub(decimals = 6) {
  const calls: Array<{ method: string; params: unknown[] }> = [];
  const mintData = Buffer.alloc(82);
  mintData[44] = decimals;
  mintData[45] = 1;
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const { id, method, params = [] } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: number; method: string; params?: unknown[] };
    calls.push({ method, params });
    const context = { slot: 1 };
    const results: Record<string, unknown> = {
      getAccountInfo: { context, value: { data: [mintData.toString('base64'), 'base64'], executable: false, lamports: 1_461_600, owner: TOKEN_PROGRAM_ADDRESS, rentEpoch: 0, space: 82 } },
      getLatestBlockhash: { context, value: { blockhash: STUB_BLOCKHASH, lastValidBlockHeight: 1_000_000 } },
    };
    const body = method in results ? { jsonrpc: '2.0', id, result: results[method] } : { jsonrpc: '2.0', id, error: { code: -32601, message: `the stub does not serve ${method}` } };
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
