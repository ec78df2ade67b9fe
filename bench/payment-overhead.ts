/**
 * What a payment costs a detection on the dev chain, against the built service in its own process (what
 * `npm start` runs), once on the embedded PGlite database (the default) and once on PostgreSQL (a database of
 * the bench's own), measured in interleaved rounds so noise falls on both. Each measurement has a fresh dev
 * chain of its own: anvil's block production slows as its chain grows (about 0.8 ms a block when fresh, 4 ms
 * after 3,000 blocks here), which would otherwise favour whatever ran first:
 *
 * - latency: p50 of a paid POST /api/x402/v1/detect-file-type (verify + settle on anvil) beside the same
 *   detection unpaid (POST /api/v1/detect_file_type), sequentially; and the official facilitator alone
 *   (verify + settle, in plain Node, no HTTP, no ledger), so that our integration's share — added minus the
 *   facilitator's — can be told apart. Target: the integration ≤ 3 ms at p50. The facilitator alone is
 *   timed twice: called in its own thread, and called across the worker thread that hosts it in the
 *   service's dev mode (FacilitatorThread) — the dev chain's stand-in for a live facilitator's network
 *   hop — so that the integration can be read with and without that transport. The integration is also
 *   read per request, in the same process and at the same moment: each paid detection's time less the
 *   facilitator's calls in it (the service's Server-Timing), less an unpaid detection's p50.
 * - throughput: paid detections per second with 10 concurrent payers, beside the facilitator alone with 10
 *   concurrent payments and unpaid detections with 10 concurrent clients. Target: ≥ 140 /s (2× the 70 /s of #19).
 *
 * Medians of the rounds are reported.
 *   npm run build && node --import tsx bench/payment-overhead.ts   (needs PostgreSQL and Redis; ROUNDS to override)
 */
import { execFile } from 'node:child_process';
import { Agent, request as httpRequest } from 'node:http';
import { promisify } from 'node:util';
import { x402Client } from '@x402/core/client';
import type { PaymentRequirements } from '@x402/core/types';
import { toClientEvmSigner } from '@x402/evm';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import { privateKeyToAccount } from 'viem/accounts';
import { DevChain } from '../libs/devchain/dist/index.js';
import { createBenchDatabase } from './support/database.js';
import { median } from './support/requests-per-second.js';
import { type BuiltService, spawnBuiltService } from './support/service.js';

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const SEQUENTIAL = 60;
const CONCURRENT = 200;
const PAYERS = 10;
const INTEGRATION_TARGET_MS = 3;
const THROUGHPUT_TARGET = 140;

const header = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');
const json = JSON.stringify({ filename: 'a.png', size_bytes: 4096, header_first_200_bytes_base64: header.toString('base64') });
const binary = Buffer.concat([Buffer.from('png\xfe1000\xfeimage/png\xfea.png\xfe', 'latin1'), header]);
const run = promisify(execFile);
/** What the service asks for a paid detection, as its challenge said. */
let detectionRequirements: PaymentRequirements | undefined;

/** How the facilitator alone is called: in the caller's thread, or across the thread that hosts it in dev mode. */
const FACILITATOR_TRANSPORTS = ['in-process', 'thread'] as const;
type FacilitatorTransport = (typeof FACILITATOR_TRANSPORTS)[number];
const TRANSPORT_LABELS: Record<FacilitatorTransport, string> = { 'in-process': 'in the caller\'s thread', thread: 'across its dev-mode thread' };

interface FacilitatorTiming {
  ms: number;
  perSecond: number;
}

interface Round {
  unpaidMs: number;
  paidMs: number;
  /** p50 of each paid detection's time less the facilitator's verify and settle in it. */
  paidBesideFacilitatorMs: number;
  /** p50 of the facilitator's verify and settle inside the service, as Server-Timing says. */
  facilitatorInServiceMs: number;
  paidPerSecond: number;
  unpaidPerSecond: number;
}

const database = await createBenchDatabase();
const subjects = [
  { label: 'embedded PGlite (default)', env: {} as Record<string, string>, rounds: [] as Round[] },
  { label: 'PostgreSQL', env: { DATABASE_URL: database.url }, rounds: [] as Round[] },
];
try {
  const facilitatorAlone: Record<FacilitatorTransport, FacilitatorTiming[]> = { 'in-process': [], thread: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const subject of subjects) {
      subject.rounds.push(
        await onFreshChain(async (chain) => {
          const service = await spawnBuiltService({ DEVCHAIN_RPC_URL: chain.rpcUrl, ...subject.env });
          try {
            return await measureRound(service, chain);
          } finally {
            await service.stop();
          }
        }),
      );
    }
    for (const transport of FACILITATOR_TRANSPORTS) facilitatorAlone[transport].push(await onFreshChain((chain) => timeFacilitatorAlone(chain, transport)));
  }

  const list = (values: number[], digits = 1) => values.map((value) => value.toFixed(digits)).join(' / ');
  const facilitatorMs = (transport: FacilitatorTransport) => median(facilitatorAlone[transport].map((round) => round.ms));
  const facilitatorPerSecond = median(facilitatorAlone['in-process'].map((round) => round.perSecond));
  console.log(`payment cost on the dev chain: ${ROUNDS} interleaved rounds, each measurement on a fresh chain; medians (each round's value after it)`);
  for (const transport of FACILITATOR_TRANSPORTS) {
    const rounds = facilitatorAlone[transport];
    console.log(`  the official facilitator alone, verify + settle, ${TRANSPORT_LABELS[transport]}   p50 ${facilitatorMs(transport).toFixed(1)} ms (${list(rounds.map((r) => r.ms))});  ${median(rounds.map((r) => r.perSecond)).toFixed(0)} /s with ${PAYERS} concurrent (${list(rounds.map((r) => r.perSecond), 0)})`);
  }
  for (const { label, rounds } of subjects) {
    const unpaid = median(rounds.map((r) => r.unpaidMs));
    const added = rounds.map((r) => r.paidMs - r.unpaidMs);
    const paidPerSecond = median(rounds.map((r) => r.paidPerSecond));
    console.log(`  ${label}`);
    console.log(`    unpaid detection (baseline)   p50 ${unpaid.toFixed(1)} ms   ${median(rounds.map((r) => r.unpaidPerSecond)).toFixed(0)} /s with ${PAYERS} concurrent`);
    console.log(`    paid detection                p50 ${median(rounds.map((r) => r.paidMs)).toFixed(1)} ms (${list(rounds.map((r) => r.paidMs))})`);
    console.log(`    added by payment              p50 ${median(added).toFixed(1)} ms (${list(added)})`);
    for (const transport of FACILITATOR_TRANSPORTS) {
      const integration = median(added) - facilitatorMs(transport);
      console.log(`    our integration (added − facilitator alone, ${TRANSPORT_LABELS[transport]})   ${integration.toFixed(1)} ms   target ≤ ${INTEGRATION_TARGET_MS} ms ${integration <= INTEGRATION_TARGET_MS ? '✔' : '✘'}`);
    }
    // Not charged to the integration by this reading: whatever the service's own work at the same moment adds to the
    // facilitator's calls (on 2 cores, a ledger write beside verify); the line before it shows the difference.
    console.log(`    the facilitator's calls inside the service (Server-Timing)   p50 ${median(rounds.map((r) => r.facilitatorInServiceMs)).toFixed(1)} ms (${list(rounds.map((r) => r.facilitatorInServiceMs))})`);
    const perRequest = rounds.map((r) => r.paidBesideFacilitatorMs - r.unpaidMs);
    const integration = median(perRequest);
    console.log(`    our integration, per request (paid − its facilitator calls, by Server-Timing − unpaid)   ${integration.toFixed(1)} ms (${list(perRequest)})   target ≤ ${INTEGRATION_TARGET_MS} ms ${integration <= INTEGRATION_TARGET_MS ? '✔' : '✘'}`);
    console.log(`    paid detections per second    ${paidPerSecond.toFixed(0)} /s (${list(rounds.map((r) => r.paidPerSecond), 0)}), ${PAYERS} concurrent payers   target ≥ ${THROUGHPUT_TARGET} /s ${paidPerSecond >= THROUGHPUT_TARGET ? '✔' : '✘'}; ${((100 * paidPerSecond) / facilitatorPerSecond).toFixed(0)} % of the facilitator alone`);
  }
} finally {
  await database.drop();
}

async function onFreshChain<T>(measure: (chain: DevChain) => Promise<T>): Promise<T> {
  const chain = await DevChain.start();
  try {
    return await measure(chain);
  } finally {
    await chain.stop();
  }
}

function payingClients(chain: DevChain): x402Client[] {
  return chain.payerPrivateKeys.map((key) => {
    const client = registerExactEvmScheme(new x402Client(), { signer: toClientEvmSigner(privateKeyToAccount(key), chain.publicClient as never) });
    client.setSpendControls({ allowedAssets: [{ network: chain.network, asset: chain.usdcAddress }] });
    return client;
  });
}

async function measureRound(service: BuiltService, chain: DevChain): Promise<Round> {
  const clients = payingClients(chain);
  const url = `${service.baseUrl}/api/x402/v1/detect-file-type`;
  const challenge = (await (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: json })).json()) as { accepts: PaymentRequirements[] };
  detectionRequirements = challenge.accepts[0]!;
  const sign = async (client: x402Client) =>
    Buffer.from(JSON.stringify(await client.createPaymentPayload({ x402Version: 2, resource: { url }, accepts: challenge.accepts }))).toString('base64');
  const signatures = await Promise.all(Array.from({ length: SEQUENTIAL + CONCURRENT }, (_, i) => sign(clients[i % clients.length]!)));
  // node:http with kept-alive connections: fetch (undici) took about 1.5 ms of CPU a request here, on the CPUs the service needs.
  const agent = new Agent({ keepAlive: true, maxSockets: PAYERS });
  const paid = () => post(agent, url, { 'content-type': 'application/json', 'payment-signature': signatures.pop()! }, json);
  const unpaid = () => post(agent, `${service.baseUrl}/api/v1/detect_file_type`, { 'content-type': 'application/octet-stream' }, binary);

  const unpaidMs: number[] = [];
  const paidMs: number[] = [];
  const paidBesideFacilitatorMs: number[] = [];
  const facilitatorInServiceMs: number[] = [];
  for (let i = 0; i < SEQUENTIAL; i++) {
    unpaidMs.push((await timed(unpaid)).ms);
    const { ms, answer } = await timed(paid);
    const facilitatorCallsMs = facilitatorMsOf(answer);
    paidMs.push(ms);
    facilitatorInServiceMs.push(facilitatorCallsMs);
    paidBesideFacilitatorMs.push(ms - facilitatorCallsMs);
  }
  const round = {
    unpaidMs: median(unpaidMs),
    paidMs: median(paidMs),
    paidBesideFacilitatorMs: median(paidBesideFacilitatorMs),
    facilitatorInServiceMs: median(facilitatorInServiceMs),
    paidPerSecond: await perSecond(CONCURRENT, paid),
    unpaidPerSecond: await perSecond(CONCURRENT * 5, unpaid),
  };
  agent.destroy();
  return round;
}

interface Answer {
  status: number;
  paymentRequired?: string;
  serverTiming?: string;
}

/** The facilitator's verify and settle in a paid answer, as its Server-Timing says. */
function facilitatorMsOf(answer: Answer): number {
  const durations = [...(answer.serverTiming ?? '').matchAll(/x402-(?:verify|settle);dur=([\d.]+)/g)].map((match) => Number(match[1]));
  if (durations.length !== 2) throw new Error(`a paid answer without the facilitator's timing: ${answer.serverTiming}`);
  return durations[0]! + durations[1]!;
}

/** A POST on a kept-alive connection of `agent`, answered once its whole body is in. */
function post(agent: Agent, url: string, headers: Record<string, string>, body: string | Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest(url, { method: 'POST', agent, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (response) => {
      response.resume();
      response.on('end', () =>
        resolve({ status: response.statusCode!, paymentRequired: response.headers['payment-required'] as string | undefined, serverTiming: response.headers['server-timing'] as string | undefined }),
      );
      response.on('error', reject);
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

/** Milliseconds until the whole answer is in, and the answer; anything but 200 fails the run. */
async function timed(request: () => Promise<Answer>): Promise<{ ms: number; answer: Answer }> {
  const start = performance.now();
  const answer = await request();
  if (answer.status !== 200) throw new Error(`HTTP ${answer.status}: ${answer.paymentRequired ?? ''}`);
  return { ms: performance.now() - start, answer };
}

/** `count` requests by PAYERS concurrent clients: answers per second. */
async function perSecond(count: number, request: () => Promise<Answer>): Promise<number> {
  let left = count;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: PAYERS }, async () => {
      while (left-- > 0) await timed(request);
    }),
  );
  return count / ((performance.now() - start) / 1000);
}

/** The official facilitator alone (what dev mode runs), in plain Node: sequential p50 and concurrent throughput. */
async function timeFacilitatorAlone(chain: DevChain, transport: FacilitatorTransport): Promise<FacilitatorTiming> {
  // The service's own requirements: every fresh chain has the token at the same address and the same payTo.
  const args = [chain.rpcUrl, JSON.stringify(detectionRequirements), String(SEQUENTIAL), String(CONCURRENT), String(PAYERS), transport];
  const { stdout } = await run(process.execPath, ['bench/support/facilitator-timing.mjs', ...args]);
  const timing = JSON.parse(stdout) as { durations: number[]; perSecond: number };
  return { ms: median(timing.durations), perSecond: timing.perSecond };
}
