// Times the official x402 facilitator alone (verify + settle on the dev chain, no HTTP, no ledger), in
// plain Node as the service runs it: tsx's loader would slow the dynamic imports viem makes per signature
// recovery. `in-process` calls it in this thread; `thread` calls it across the FacilitatorThread the
// service's dev mode uses. Prints JSON: the sequential durations in milliseconds, and the payments per
// second that `concurrency` callers get through at once.
//   node bench/support/facilitator-timing.mjs <rpc url> <requirements JSON> <count> <concurrent count> <concurrency> <in-process|thread>
import console from 'node:console';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { x402Client } from '@x402/core/client';
import { toClientEvmSigner } from '@x402/evm';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import { privateKeyToAccount } from 'viem/accounts';
import { DevChain, FacilitatorThread, LocalFacilitatorClient } from '../../libs/devchain/dist/index.js';

const [rpcUrl, requirementsJson, count, concurrentCount, concurrency, transport] = process.argv.slice(2);
const requirements = JSON.parse(requirementsJson);
const chain = await DevChain.start({ rpcUrl });
const facilitator = transport === 'thread' ? new FacilitatorThread(rpcUrl) : new LocalFacilitatorClient(chain);
const clients = chain.payerPrivateKeys.map((key) => {
  const client = registerExactEvmScheme(new x402Client(), { signer: toClientEvmSigner(privateKeyToAccount(key), chain.publicClient) });
  client.setSpendControls({ allowedAssets: [{ network: chain.network, asset: chain.usdcAddress }] });
  return client;
});
const sign = (i) => clients[i % clients.length].createPaymentPayload({ x402Version: 2, resource: { url: 'http://bench/' }, accepts: [requirements] });
const pay = async (payload) => {
  if (!(await facilitator.verify(payload, requirements)).isValid) throw new Error('verify failed');
  if (!(await facilitator.settle(payload, requirements)).success) throw new Error('settle failed');
};

const durations = [];
for (let i = 0; i < Number(count); i++) {
  const payload = await sign(i);
  const started = performance.now();
  await pay(payload);
  durations.push(performance.now() - started);
}

const payloads = await Promise.all(Array.from({ length: Number(concurrentCount) }, (_, i) => sign(i)));
const started = performance.now();
await Promise.all(
  Array.from({ length: Number(concurrency) }, async () => {
    for (let payload = payloads.pop(); payload; payload = payloads.pop()) await pay(payload);
  }),
);
const perSecond = Number(concurrentCount) / ((performance.now() - started) / 1000);
await facilitator.dispose();
console.log(JSON.stringify({ durations, perSecond }));
