/**
 * Requests per second of both detect endpoints beside a bare Fastify route that returns a constant, all
 * under autocannon (10 connections) in the same run: the key API's POST /api/v1/detect_file_type (200,
 * no key: its limits counted in Redis) and the x402 API's POST /api/x402/v1/detect-file-type on its unpaid
 * path (a valid request without payment: 402 with the challenge). Target: each ≥ 60 % of the bare route.
 * The three run in turn, round after round, so a burst of noise on this shared machine falls on one round of
 * each rather than on one endpoint; each round's ratio is to the bare route of that round, and the medians
 * are reported. Beside req/s, answers per CPU-second of this process (load generator and server): that ratio holds
 * when other work takes the CPUs for part of a run, which req/s do not.
 *   npm run build && node --import tsx bench/detect-endpoint.ts   (needs Redis; ROUNDS, SECONDS to override)
 */
import Fastify from 'fastify';
import { bootService } from './support/boot.js';
import { type LoadTarget, median, requestsPerSecond, type Throughput } from './support/requests-per-second.js';

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const SECONDS = Number(process.env.SECONDS ?? 4);
const TARGET_RATIO = 0.6;

const header = Buffer.from('89504e470d0a1a0a0000000d4948445200000320000002580806000000', 'hex');
const keyApiBody = Buffer.concat([Buffer.from('jpg\xfe1a2b\xfeimage/jpeg\xfeholiday.jpg\xfe', 'latin1'), header]);
const x402Body = JSON.stringify({ filename: 'holiday.jpg', size_bytes: 6699, header_first_200_bytes_base64: header.toString('base64') });

const bare = Fastify();
bare.get('/constant', async () => 'The file is most likely a PNG image.');
await bare.listen({ port: 0, host: '127.0.0.1' });
const service = await bootService();
try {
  const baseline: LoadTarget = {
    label: 'bare Fastify constant route',
    url: `http://127.0.0.1:${(bare.server.address() as { port: number }).port}/constant`,
    method: 'GET',
    expectedStatus: 200,
  };
  const endpoints: LoadTarget[] = [
    {
      label: 'key API detect_file_type (200)',
      url: `${service.baseUrl}/api/v1/detect_file_type`,
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: keyApiBody,
      expectedStatus: 200,
    },
    {
      label: 'x402 detect-file-type, unpaid (402)',
      url: `${service.baseUrl}/api/x402/v1/detect-file-type`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: x402Body,
      expectedStatus: 402,
    },
  ];
  await checkAnswers(endpoints);
  // Warm-up: JIT, connection pools, the first read of the workers' capabilities.
  for (const target of [baseline, ...endpoints]) await requestsPerSecond(target, 1);

  const rates = new Map<LoadTarget, Throughput[]>([baseline, ...endpoints].map((target) => [target, []]));
  const ratios = new Map<LoadTarget, { wall: number[]; cpu: number[] }>(endpoints.map((target) => [target, { wall: [], cpu: [] }]));
  for (let round = 0; round < ROUNDS; round++) {
    const bareRate = await requestsPerSecond(baseline, SECONDS);
    rates.get(baseline)!.push(bareRate);
    for (const target of endpoints) {
      const rate = await requestsPerSecond(target, SECONDS);
      rates.get(target)!.push(rate);
      ratios.get(target)!.wall.push(rate.perSecond / bareRate.perSecond);
      ratios.get(target)!.cpu.push(rate.perCpuSecond / bareRate.perCpuSecond);
    }
  }

  const thousands = (value: number) => Math.round(value).toLocaleString('en');
  const percent = (values: number[]) => `${(median(values) * 100).toFixed(0)} %`;
  console.log(`Detect endpoints vs a bare Fastify route (autocannon, 10 connections, ${ROUNDS} rounds of ${SECONDS} s each, interleaved)`);
  for (const [target, values] of rates) {
    const perSecond = values.map((value) => value.perSecond);
    const perCpuSecond = values.map((value) => value.perCpuSecond);
    console.log(`  ${target.label}`);
    console.log(`    median ${thousands(median(perSecond))} req/s (rounds: ${perSecond.map(thousands).join(' / ')}); ${thousands(median(perCpuSecond))} per CPU-second of this process`);
    const ratio = ratios.get(target);
    if (ratio) {
      const verdict = median(ratio.wall) >= TARGET_RATIO ? '✔' : '✘';
      console.log(`    ratio to bare: ${percent(ratio.wall)} of its req/s (rounds: ${ratio.wall.map((value) => (value * 100).toFixed(0)).join(' / ')} %), target ≥ ${TARGET_RATIO * 100} % ${verdict}; ${percent(ratio.cpu)} per CPU-second`);
    }
  }
} finally {
  await service.close();
  await bare.close();
}

/** One request to each endpoint first: the load must measure the right answer, not a fast error. */
async function checkAnswers(targets: readonly LoadTarget[]): Promise<void> {
  for (const target of targets) {
    const body = Buffer.isBuffer(target.body) ? new Uint8Array(target.body) : target.body;
    const response = await fetch(target.url, { method: target.method, headers: target.headers, body });
    const text = await response.text();
    if (response.status !== target.expectedStatus) throw new Error(`${target.label}: HTTP ${response.status} ${text}`);
    if (target.expectedStatus === 402 && !(response.headers.get('payment-required') && JSON.parse(text).accepts?.length)) {
      throw new Error(`${target.label}: a 402 without its challenge: ${text}`);
    }
  }
}
