import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { crc32, deflateSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConversionError } from '../src/conversion-error.js';
import { FfmpegAudioConverter } from '../src/ffmpeg-audio.converter.js';
import { SandboxedProcessRunner } from '../src/sandboxed-process.runner.js';
import { SharpImageConverter } from '../src/sharp-image.converter.js';

const dir = mkdtempSync(join(tmpdir(), 'fileshift-engines-'));
const context = () => ({ signal: new AbortController().signal });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function expectFailure(promise: Promise<unknown>, failureType: string) {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(ConversionError);
  expect((error as ConversionError).failureType).toBe(failureType);
  expect((error as ConversionError).message).not.toContain(dir);
}

describe('sharp images', () => {
  const sharpConverter = new SharpImageConverter();
  let png: string;
  beforeAll(async () => {
    png = join(dir, 'in.png');
    await sharp({ create: { width: 120, height: 80, channels: 3, background: '#3366cc' } }).png().toFile(png);
  });

  it('converts to every output format with the same dimensions', async () => {
    for (const to of ['jpg', 'webp', 'avif', 'tiff', 'gif']) {
      const out = join(dir, `out.${to}`);
      await sharpConverter.convert({ inputPath: png, outputPath: out, from: 'png', to }, context());
      const meta = await sharp(out).metadata();
      expect(meta.format === 'heif' ? 'avif' : meta.format === 'jpeg' ? 'jpg' : meta.format, to).toBe(to);
      expect([meta.width, meta.height]).toEqual([120, 80]);
    }
  });

  it('fails cleanly on corrupt input and on a decompression bomb', async () => {
    const corrupt = join(dir, 'corrupt.png');
    writeFileSync(corrupt, Buffer.from('89504e470d0a1a0a00000000garbage', 'hex'));
    await expectFailure(sharpConverter.convert({ inputPath: corrupt, outputPath: join(dir, 'x.webp'), from: 'png', to: 'webp' }, context()), 'unsupported_or_corrupt_input');
    const bomb = join(dir, 'bomb.png');
    writeFileSync(bomb, pngDeclaring(50_000, 50_000));
    await expectFailure(sharpConverter.convert({ inputPath: bomb, outputPath: join(dir, 'y.webp'), from: 'png', to: 'webp' }, context()), 'security_rejected');
  });
});

describe('ffmpeg audio (Debian ffmpeg)', () => {
  const ffmpeg = new FfmpegAudioConverter();
  let present = false;
  beforeAll(async () => {
    const probe = await ffmpeg.probe();
    present = probe.available;
    if (!present) console.error(`ENGINE MISSING: ${probe.problem} — CI installs it; these tests fail without it.`);
  });

  const duration = (path: string) =>
    Number(execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', path], { encoding: 'utf8' }));
  const formatName = (path: string) =>
    execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=format_name', '-of', 'csv=p=0', path], { encoding: 'utf8' }).trim();

  it('is installed', () => expect(present).toBe(true));

  it('converts between audio formats, keeping the duration', async () => {
    const source = join(dir, 'tone.mp3');
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=2', '-c:a', 'libmp3lame', source]);
    const wav = join(dir, 'tone.wav');
    await ffmpeg.convert({ inputPath: source, outputPath: wav, from: 'mp3', to: 'wav', workRoot: dir }, context());
    const cases: Array<[string, string, string, RegExp]> = [
      [source, 'mp3', 'wav', /^wav$/],
      [wav, 'wav', 'mp3', /^mp3$/],
      [wav, 'wav', 'flac', /^flac$/],
      [wav, 'wav', 'ogg', /^ogg$/],
      [source, 'mp3', 'opus', /^ogg$/],
      [wav, 'wav', 'm4a', /mp4|m4a/],
      [wav, 'wav', 'aac', /^aac$/],
    ];
    for (const [input, from, to, container] of cases) {
      const out = join(dir, `converted-${from}.${to}`);
      await ffmpeg.convert({ inputPath: input, outputPath: out, from, to, workRoot: dir }, context());
      expect(formatName(out), `${from}→${to}`).toMatch(container);
      if (to !== 'aac') expect(Math.abs(duration(out) - 2), `${from}→${to}`).toBeLessThan(0.2);
    }
    expect(readdirSync(dir).filter((name) => name.startsWith('ffmpeg-'))).toEqual([]);
  });

  it('reports corrupt input, not a crash', async () => {
    const corrupt = join(dir, 'corrupt.mp3');
    writeFileSync(corrupt, 'this is not audio at all');
    await expectFailure(ffmpeg.convert({ inputPath: corrupt, outputPath: join(dir, 'c.wav'), from: 'mp3', to: 'wav', workRoot: dir }, context()), 'unsupported_or_corrupt_input');
  });
});

describe('SandboxedProcessRunner', () => {
  const runner = new SandboxedProcessRunner();
  // A killed process may linger as a zombie until its new parent reaps it: that is not alive.
  const alive = (pid: number) => existsSync(`/proc/${pid}`) && !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));

  it('kills the whole process tree on timeout', async () => {
    const pidFile = join(dir, 'pids');
    const started = Date.now();
    await expectFailure(
      runner.run({ command: 'sh', args: ['-c', `sleep 30 & echo $! > ${pidFile}; sleep 30`], cwd: dir, timeoutMs: 300 }),
      'timeout',
    );
    expect(Date.now() - started).toBeLessThan(5000);
    const grandchild = Number(execFileSync('cat', [pidFile], { encoding: 'utf8' }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(alive(grandchild)).toBe(false);
  });

  it('kills a process whose output passes the cap', async () => {
    const out = join(dir, 'big.bin');
    await expectFailure(
      runner.run({ command: 'sh', args: ['-c', `while true; do head -c 65536 /dev/zero >> ${out}; done`], cwd: dir, timeoutMs: 10_000, outputPath: out, maxOutputBytes: 1_000_000 }),
      'file_too_large',
    );
    expect(statSync(out).size).toBeLessThan(50_000_000);
  });

  it('passes arguments without a shell: a hostile file name is just a name', async () => {
    const marker = join(dir, 'should-not-exist');
    const result = await runner.run({ command: 'ls', args: [`x; touch ${marker}`], cwd: dir, timeoutMs: 5000 });
    expect(result.exitCode).not.toBe(0);
    expect(existsSync(marker)).toBe(false);
    expect(result.stderrTail).toContain('No such file');
  });

  it('stops when aborted and runs with a minimal environment', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    await expectFailure(runner.run({ command: 'sleep', args: ['30'], cwd: dir, timeoutMs: 10_000, signal: controller.signal }), 'unknown');
    let env = '';
    process.env.HTTP_PROXY = 'http://proxy.invalid';
    await runner.run({ command: 'env', args: [], cwd: dir, timeoutMs: 5000, onStdout: (chunk) => (env += chunk) });
    delete process.env.HTTP_PROXY;
    expect(env).not.toContain('HTTP_PROXY');
    expect(env).toContain(`HOME=${dir}`);
  });
});

/** A tiny PNG whose header declares huge dimensions: a decompression bomb as the decoder sees it. */
function pngDeclaring(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 0, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.alloc(1024))), chunk('IEND', Buffer.alloc(0))]);
}
