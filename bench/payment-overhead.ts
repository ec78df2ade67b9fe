/**
 * Latency a payment adds to a detection on the dev chain: p50 and p95 of a paid
 * POST /api/x402/v1/detect-file-type (verify + settle on anvil) beside the same detection unpaid
 * (POST /api/v1/detect_file_type), sequentially, in the same run, against the built service in its own
 * process (what `npm start` runs); and paid detections per second with 10 concurrent payers.
 * Target: ≤ 15 ms added at p50. Also the facilitator's own share (verify + settle on anvil), timed
 * alone in plain Node, so the integration's overhead can be told apart from the facilitator's.
 *   npm run build && node --import tsx bench/payment-overhead.ts   (PGlite, or DATABASE_URL; and Redis)
 */
import { execFileSync } from 'node:child_process';
import { x402Client } from '@x402/core/client';
import type { PaymentRequirements } from '@x402/core/types';
import { toClientEvmSigner } from '@x402/evm';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import { privateKeyToAccount } from 'viem/accounts';
import { DevChain } from '../libs/devchain/dist/index.js';
import { spawnBuiltService } from './support/service.js';

const N = 150;
const header = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');
const json = JSON.stringify({ filename: 'a.png', size_bytes: 4096, header_first_200_bytes_base64: header.toString('base64') });
const binary = Buffer.concat([Buffer.from('png\xfe1000\xfeimage/png\xfea.png\xfe', 'latin1'), header]);

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;

const chain = await DevChain.start();
const service = await spawnBuiltService({ DEVCHAIN_RPC_URL: chain.rpcUrl });
try {
  const url = `${service.baseUrl}/api/x402/v1/detect-file-type`;
  const challenge = (await (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: json })).json()) as { accepts: PaymentRequirements[] };
  const clients = chain.payerPrivateKeys.map((key) => {
    const client = registerExactEvmScheme(new x402Client(), { signer: toClientEvmSigner(privateKeyToAccount(key), chain.publicClient as never) });
    client.setSpendControls({ allowedAssets: [{ network: chain.network, asset: chain.usdcAddress }] });
    return client;
  });
  const sign = async (client: x402Client) =>
    Buffer.from(JSON.stringify(await client.createPaymentPayload({ x402Version: 2, resource: { url }, accepts: challenge.accepts }))).toString('base64');
  const signatures = await Promise.all(Array.from({ length: N }, (_, i) => sign(clients[i % clients.length]!)));

  const time = async (request: () => Promise<Response>) => {
    const start = performance.now();
    const response = await request();
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`HTTP ${response.status}`);
    return performance.now() - start;
  };
  const unpaid: number[] = [];
  const paid: number[] = [];
  for (let i = 0; i < N; i++) {
    unpaid.push(await time(() => fetch(`${service.baseUrl}/api/v1/detect_file_type`, { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: binary })));
    paid.push(await time(() => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'PAYMENT-SIGNATURE': signatures[i]! }, body: json })));
  }
  const more = await Promise.all(Array.from({ length: 100 }, (_, i) => sign(clients[i % clients.length]!)));
  const start = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: 10 }, async () => {
    while (next < more.length) {
      const signature = more[next++]!;
      await time(() => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'PAYMENT-SIGNATURE': signature }, body: json }));
    }
  }));
  const throughput = more.length / ((performance.now() - start) / 1000);

  // The official facilitator alone (what dev mode runs in-process): verify + settle on anvil, no HTTP, no ledger.
  const facilitatorOnly = JSON.parse(
    execFileSync(process.execPath, ['bench/support/facilitator-timing.mjs', chain.rpcUrl, JSON.stringify(challenge.accepts[0]), '60'], { encoding: 'utf8' }),
  ) as number[];

  const row = (name: string, values: number[]) => `  ${name.padEnd(28)} p50 ${percentile(values, 50).toFixed(1).padStart(6)} ms   p95 ${percentile(values, 95).toFixed(1).padStart(6)} ms`;
  console.log(`payment overhead on the dev chain (${N} sequential requests each)`);
  console.log(row('unpaid detection (baseline)', unpaid));
  console.log(row('paid detection', paid));
  console.log(`  added by payment             p50 ${(percentile(paid, 50) - percentile(unpaid, 50)).toFixed(1)} ms   p95 ${(percentile(paid, 95) - percentile(unpaid, 95)).toFixed(1)} ms   (target ≤ 15 ms at p50)`);
  console.log(row('  of which the facilitator', facilitatorOnly) + '   (official @x402/evm verify + settle on anvil, alone)');
  console.log(`  the integration itself       p50 ${(percentile(paid, 50) - percentile(unpaid, 50) - percentile(facilitatorOnly, 50)).toFixed(1)} ms   (added − facilitator: header decoding, requirements, ledger rows, PAYMENT-RESPONSE)`);
  console.log(`  paid detections per second   ${throughput.toFixed(0)} /s (10 concurrent payers)`);
} finally {
  await service.stop();
  await chain.stop();
}
