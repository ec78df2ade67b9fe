/**
 * A paid conversion as fast as the conversion (#30), against the built service in its own process (ROLE=all, its
 * own PostgreSQL database and QUEUE_PREFIX) settling on a fresh dev chain:
 *  - end to end through the SDK, paid (`convertFile`: job fee, long-polled status, result bought, file downloaded),
 *    beside the same conversion through the key API (upload + convert + download) in interleaved rounds: a 50 KB
 *    WAV → FLAC and a 10 KB DOCX → PDF, p50 of each. Target: the paid path adds at most 250 ms.
 *  - bytes on the wire of a paid conversion of an 8 MB WAV through the SDK, counted by a TCP proxy, against the
 *    file's size: a new payer's first conversion (its job fee signed from the challenge /.well-known/x402.json
 *    publishes) and later ones (from the challenge it holds). Target: at most 1.05× for each.
 *  - 1,000 status requests waiting at once (`?wait=30`) on the one API process, for jobs held in a paused queue:
 *    the process's memory, its event-loop delay (p99, from its own /metrics) and the database's transactions per
 *    second, each beside the same process idle; then the queue resumes and every waiting request is answered.
 *   npm run bench:paid   (builds the API and the SDK; needs PostgreSQL, Redis, ffmpeg and LibreOffice)
 */
import { Agent, request as httpRequest } from 'node:http';
import { sampleDocx } from '@fileshift/converters/testing';
import { createClient, createPayer } from '@fileshift/sdk';
import { countingProxy, toneWav } from '@fileshift/testing';
import { Queue } from 'bullmq';
import pg from 'pg';
import { privateKeyToAccount } from 'viem/accounts';
import { DevChain } from '../libs/devchain/dist/index.js';
import { QueueName } from '../apps/api/dist/queue/job-contract.js';
import { createBenchDatabase } from './support/database.js';
import { words } from './support/prose.js';
import { median } from './support/requests-per-second.js';
import { rssBytes, spawnBuiltService, waitUntilConverts } from './support/service.js';

const ROUNDS = Number(process.env.ROUNDS ?? 15);
const WAITERS = Number(process.env.WAITERS ?? 1000);
const ADDED_TARGET_MS = 250;
const WIRE_TARGET = 1.05;
const METRICS_TOKEN = 'bench-paid-conversion-metrics';
const QUEUE_PREFIX = `bench-paid-${process.pid}`;
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

const wav = Buffer.from(toneWav(3)); // 48 KB
/** About 10 KB, as bench/document-conversions.ts's small DOCX. */
const docx = sampleDocx([2, 3, 4].map((n) => `Page ${n}. ${words(850, n)}.`));
const cases = [
  { label: `${(wav.length / 1024).toFixed(0)} KB wav → flac`, file: wav, filename: 'tone.wav', from: 'wav', to: 'flac' as const },
  { label: `${(docx.length / 1024).toFixed(0)} KB docx → pdf`, file: docx, filename: 'report.docx', from: 'docx', to: 'pdf' as const },
];

const database = await createBenchDatabase();
const chain = await DevChain.start();
const service = await spawnBuiltService({ DATABASE_URL: database.url, DEVCHAIN_RPC_URL: chain.rpcUrl, QUEUE_PREFIX, METRICS_TOKEN, LIBREOFFICE_POOL_SIZE: '1' });
try {
  for (const { from, to } of cases) await waitUntilConverts(service, from, to);
  const account = privateKeyToAccount(chain.payerPrivateKeys[0]!);
  const payer = createPayer({ account, allow: [{ network: chain.network, asset: chain.usdcAddress }], maxPerPayment: 50_000n });
  const paying = createClient({ baseUrl: service.baseUrl, payer });
  const keyApi = createClient({ baseUrl: service.baseUrl });

  console.log(`a paid conversion through the SDK beside the key API, ${ROUNDS} interleaved rounds (one warm-up), p50`);
  for (const { label, file, filename, from, to } of cases) {
    const paid: number[] = [];
    const key: number[] = [];
    for (let round = 0; round <= ROUNDS; round++) {
      const paidMs = await timed(async () => {
        const converted = await paying.convertFile({ input: new File([file], filename), targetFormat: to });
        if (converted.sizeBytes === 0) throw new Error('empty result');
      });
      const keyMs = await timed(async () => {
        const uploaded = await keyApi.upload(new File([file], filename));
        const { urls } = await keyApi.convert({ filename: uploaded, extIn: from, extOut: to });
        const download = await fetch(urls[0]!);
        if ((await download.arrayBuffer()).byteLength === 0) throw new Error('empty download');
      });
      if (round > 0) {
        paid.push(paidMs);
        key.push(keyMs);
      }
    }
    const added = median(paid) - median(key);
    console.log(`  ${label.padEnd(22)} key API (baseline) ${median(key).toFixed(0).padStart(5)} ms   paid through the SDK ${median(paid).toFixed(0).padStart(5)} ms   added ${added.toFixed(0).padStart(4)} ms   target ≤ ${ADDED_TARGET_MS} ms ${added <= ADDED_TARGET_MS ? '✔' : '✘'}`);
  }

  await measureWire(account);
  await measureWaiters(paying);
} finally {
  await service.stop();
  await chain.stop();
  await database.drop();
}

/** What a paid conversion of an 8 MB file puts on the wire, through a counting proxy, for a new payer's first and later conversions. */
async function measureWire(account: ReturnType<typeof privateKeyToAccount>): Promise<void> {
  const big = Buffer.from(toneWav(520)); // 8.3 MB
  const proxy = await countingProxy(service.baseUrl);
  try {
    // A new payer: it has seen no challenge yet.
    const payer = createPayer({ account, allow: [{ network: chain.network, asset: chain.usdcAddress }], maxPerPayment: 50_000n });
    const client = createClient({ baseUrl: proxy.url, payer });
    const ratios: number[] = [];
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const before = proxy.sent();
      times.push(await timed(async () => void (await client.convertFile({ input: new File([big], 'long.wav'), targetFormat: 'flac' }))));
      ratios.push((proxy.sent() - before) / big.length);
    }
    const worst = Math.max(...ratios);
    console.log(`bytes on the wire of a paid conversion of a ${(big.length / 1024 / 1024).toFixed(1)} MB WAV, as a multiple of the file (a new payer)`);
    console.log(`  the payer's first conversion ${ratios[0]!.toFixed(3)}×   later ones ${ratios.slice(1).map((r) => r.toFixed(3)).join(', ')}×   target ≤ ${WIRE_TARGET}× for each ${worst <= WIRE_TARGET ? '✔' : '✘'}`);
    console.log(`  end to end: the first ${times[0]!.toFixed(0)} ms (it reads /.well-known/x402.json once)   later ones ${times.slice(1).map((t) => t.toFixed(0)).join(', ')} ms`);
  } finally {
    await proxy.close();
  }
}

async function timed(run: () => Promise<void>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

/** WAITERS long-polled statuses at once, for jobs held in the paused media queue, against the same process idle. */
async function measureWaiters(paying: ReturnType<typeof createClient>): Promise<void> {
  const media = new Queue(QueueName.Media, { connection: { url: REDIS_URL }, prefix: QUEUE_PREFIX });
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  const agent = new Agent({ keepAlive: true, maxSockets: WAITERS });
  try {
    await media.pause();
    const jobs = await Promise.all(Array.from({ length: 10 }, (_, i) => paying.startConversion(new File([wav], `tone-${i}.wav`), 'flac')));
    const idle = await observe(db, 5_000);

    const answers: Array<Promise<string>> = [];
    for (let i = 0; i < WAITERS; i++) answers.push(statusOf(agent, `${service.baseUrl}/api/x402/v1/convert-file/${jobs[i % jobs.length]!.job_id}/status?wait=30`));
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const waiting = await observe(db, 5_000);
    const resumed = performance.now();
    await media.resume();
    const statuses = await Promise.all(answers);
    const answeredMs = performance.now() - resumed;
    const done = statuses.filter((status) => status === 'done').length;

    console.log(`${WAITERS} status requests waiting at once (?wait=30) for 10 jobs in a paused queue, one API process, beside it idle`);
    console.log(`  RSS                         idle ${mb(idle.rss)}   waiting ${mb(waiting.rss)}   growth ${mb(waiting.rss - idle.rss)} (${((waiting.rss - idle.rss) / WAITERS / 1024).toFixed(1)} KB a request)`);
    console.log(`  event-loop delay p99        idle ${idle.loopP99Ms.toFixed(1)} ms   waiting ${waiting.loopP99Ms.toFixed(1)} ms`);
    console.log(`  database transactions /s    idle ${idle.transactionsPerSecond.toFixed(1)}   waiting ${waiting.transactionsPerSecond.toFixed(1)}`);
    console.log(`  after the queue resumed: ${done} of ${WAITERS} answered done, the last ${answeredMs.toFixed(0)} ms after the resume`);
  } finally {
    await media.resume().catch(() => undefined);
    await media.close();
    await db.end();
    agent.destroy();
  }
}

interface Observation {
  rss: number;
  loopP99Ms: number;
  transactionsPerSecond: number;
}

/** The process's RSS at the end of `ms`, its event-loop delay p99 over them, and the database's transactions a second. */
async function observe(db: pg.Client, ms: number): Promise<Observation> {
  await metricsText(); // prom-client's event-loop histogram starts again at each scrape
  const before = await transactions(db);
  await new Promise((resolve) => setTimeout(resolve, ms));
  const after = await transactions(db);
  const p99 = Number(/^nodejs_eventloop_lag_p99_seconds\s+([\d.e+-]+)/m.exec(await metricsText())?.[1] ?? NaN);
  return { rss: rssBytes(service.child.pid!), loopP99Ms: p99 * 1000, transactionsPerSecond: (after.count - before.count) / ((after.at - before.at) / 1000) };
}

/** The database's transactions so far, read once other sessions' statistics have reached pg_stat_database (within a second). */
async function transactions(db: pg.Client): Promise<{ count: number; at: number }> {
  const at = performance.now();
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  const { rows } = await db.query('SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()');
  return { count: Number(rows[0].n), at };
}

async function metricsText(): Promise<string> {
  return (await fetch(`${service.baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
}

/** A status request on a kept-alive connection of `agent`; resolves with the status it answers. */
function statusOf(agent: Agent, url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    httpRequest(url, { agent }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve(response.statusCode === 200 ? ((JSON.parse(body) as { status: string }).status) : `HTTP ${response.statusCode}`));
      response.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
