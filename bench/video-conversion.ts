/**
 * A 10-second 720p MP4 → WebM through the service (key API `convert`, as its caller sees it) against ffmpeg
 * run alone with the same arguments, measured in the same run, interleaved (target: overhead ≤ 10 %). The
 * service runs as one process (ROLE=all) with its own database and QUEUE_PREFIX.
 *   npm run bench:video   (builds the API; needs PostgreSQL, Redis and ffmpeg)
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { engineDescriptor } from '@fileshift/converters';
import { ffmpegInputArgs, videoOutputArgs } from '@fileshift/converters/worker';
import { createBenchDatabase } from './support/database.js';
import { spawnBuiltService, waitUntilConverts } from './support/service.js';

const ROUNDS = Number(process.env.BENCH_VIDEO_ROUNDS ?? 5);
const dir = mkdtempSync(join(tmpdir(), 'fileshift-bench-video-'));
const input = join(dir, 'clip.mp4');
execFileSync('ffmpeg', [
  '-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30:duration=10', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=10',
  '-c:v', 'libx264', '-preset', 'medium', '-crf', '23', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', input,
]);
const clip = readFileSync(input);

const p50 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** ffmpeg alone, as the runtime runs it (the same arguments, the same nice level), without the service around it. */
function ffmpegAlone(round: number): Promise<number> {
  const output = join(dir, `alone-${round}.webm`);
  const args = [
    '-n', '10', 'ffmpeg', '-nostdin', '-hide_banner', '-loglevel', 'error', '-y', ...ffmpegInputArgs('mp4', input),
    ...videoOutputArgs('webm', engineDescriptor('ffmpeg-video')!.limits.maxDurationSeconds!).args, '-progress', 'pipe:1', '-nostats', `file:${output}`,
  ];
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn('nice', args, { stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`ffmpeg exited ${code}`))));
  });
}

const database = await createBenchDatabase();
const service = await spawnBuiltService({
  DATABASE_URL: database.url,
  REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  QUEUE_PREFIX: `bench-${database.name}`,
  LIBREOFFICE_POOL_SIZE: '1',
});
const api = (path: string, init: RequestInit) => fetch(`${service.baseUrl}${path}`, { ...init, headers: { accept: 'application/json', ...init.headers } });

/** Upload (not timed), then key API `convert` timed as its caller sees it, until it answers with the WebM's URL. */
async function throughService(round: number): Promise<number> {
  const form = new FormData();
  form.append('file', new Blob([clip]), `clip-${round}.mp4`);
  const { Filename } = (await (await api('/api/v1/upload', { method: 'POST', body: form })).json()) as { Filename: string };
  const started = performance.now();
  const response = await api('/api/v1/convert', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ filename: Filename, ext_in: 'mp4', ext_out: 'webm' }) });
  const elapsed = performance.now() - started;
  const body = (await response.json()) as { file?: { urls: string[] }; Message?: string };
  if (response.status !== 200 || body.file?.urls.length !== 1) throw new Error(`convert answered ${response.status}: ${body.Message}`);
  return elapsed;
}

try {
  await waitUntilConverts(service, 'mp4', 'webm');
  await throughService(0); // warm-up
  await ffmpegAlone(0);
  const alone: number[] = [];
  const viaService: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    alone.push(await ffmpegAlone(round));
    viaService.push(await throughService(round));
  }
  const overhead = (p50(viaService) / p50(alone) - 1) * 100;
  console.log(`MP4 (10 s, 1280×720, ${(clip.length / 1024 / 1024).toFixed(1)} MB) → WebM (VP9 + Opus), ${ROUNDS} rounds interleaved, 2 cores`);
  console.log(`  ffmpeg alone, same arguments (baseline)   p50 ${s(p50(alone))}   [${alone.map(s).join(', ')}]`);
  console.log(`  key API convert through the service       p50 ${s(p50(viaService))}   [${viaService.map(s).join(', ')}]`);
  console.log(`  overhead ${overhead.toFixed(1)} % (${s(p50(viaService) - p50(alone))}; target ≤ 10 %)`);
} finally {
  await service.stop();
  await database.drop();
  rmSync(dir, { recursive: true, force: true });
}
