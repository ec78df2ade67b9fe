import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  censusDuring,
  ghostscriptEps,
  isolationProblems,
  MARKUP_SAMPLES,
  type ProcessIsolation,
  sampleDocx,
  sampleEpub,
  sampleHtml,
  writeArchiveSamples,
  writeMediaSamples,
  writeRasterSamples,
} from '@fileshift/converters/testing';
import { dropRedisKeys, uniqueQueuePrefix } from '@fileshift/testing';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, spawnService, type ServiceProcess, waitFor } from './support/service-process.js';

/**
 * The README's path, as a new user takes it: the built service started from a fresh working directory with nothing
 * set but a port and a queue prefix — so its defaults: data, scratch and engines under `./.data` (a relative path),
 * the embedded database, dev payments, ENGINE_SANDBOX=required. A key made with the CLI, as the README says, then one
 * file per engine class converted through the key API while every process the service starts is watched from /proc:
 * each engine's process is seen, and each is in its sandbox (own namespaces, a user of its own, no capabilities,
 * seccomp, limits).
 */
const APIKEY_CLI = fileURLToPath(new URL('../dist/apikey.js', import.meta.url));
/** Processes of the service's tree that are not engines: the local chains of dev payments (anvil, and the Solana one). */
const isDevChain = (found: ProcessIsolation) => found.name === 'anvil' || found.commandLine.includes('solana-dev-chain.process');
const MOST_TRIES = 10;

interface Case {
  /** The engine (class) the pair goes through. */
  engine: string;
  file: string;
  from: string;
  to: string;
  /** The programs it runs: the case is converted again until one of them was seen. */
  programs: string[];
  /** How the output starts. */
  magic: RegExp;
}

const CASES: Case[] = [
  { engine: 'Node host: sharp', file: 'picture.png', from: 'png', to: 'webp', programs: ['node'], magic: /^RIFF....WEBP/s },
  { engine: 'Node host: data', file: 'table.csv', from: 'csv', to: 'json', programs: ['node'], magic: /^\[/ },
  { engine: 'Node host: office readers', file: 'report.docx', from: 'docx', to: 'md', programs: ['node'], magic: /Fileshift/ },
  { engine: 'LibreOffice', file: 'report.docx', from: 'docx', to: 'pdf', programs: ['soffice.bin'], magic: /^%PDF-/ },
  { engine: 'Chromium', file: 'page.html', from: 'html', to: 'pdf', programs: ['chromium'], magic: /^%PDF-/ },
  { engine: 'ffmpeg', file: 'tone.wav', from: 'wav', to: 'mp3', programs: ['ffmpeg'], magic: /^(ID3|\xff[\xe0-\xff])/ },
  { engine: 'pandoc', file: 'notes.md', from: 'md', to: 'html', programs: ['pandoc'], magic: /<h1|<p>/ },
  { engine: 'calibre', file: 'book.epub', from: 'epub', to: 'mobi', programs: ['ebook-convert'], magic: /^.{60}BOOKMOBI/s },
  { engine: 'Ghostscript', file: 'figure.eps', from: 'eps', to: 'pdf', programs: ['gs'], magic: /^%PDF-/ },
  { engine: 'poppler', file: 'figure.pdf', from: 'pdf', to: 'png', programs: ['pdftoppm'], magic: /^\x89PNG/ },
  { engine: 'ImageMagick', file: 'picture.tga', from: 'tga', to: 'png', programs: ['convert-im6.q16', 'identify-im6.q16'], magic: /^\x89PNG/ },
  { engine: 'bsdtar', file: 'bundle.zip', from: 'zip', to: 'tar', programs: ['bsdtar'], magic: /^.{257}ustar/s },
  { engine: 'OCR', file: 'words.png', from: 'png', to: 'txt', programs: ['tesseract'], magic: /Fileshift/ },
];

describe('the README\'s path: npm start\'s defaults from a fresh directory sandbox every engine', () => {
  const cwd = mkdtempSync(join(tmpdir(), 'fileshift-readme-'));
  const samples = mkdtempSync(join(tmpdir(), 'fileshift-readme-samples-'));
  const queuePrefix = uniqueQueuePrefix('readme-path');
  const files = new Map<string, string>();
  /** What the README's user sets, and nothing else of Fileshift's (PATH and HOME are the shell's). */
  let env: Record<string, string>;
  let service: ServiceProcess;
  let baseUrl = '';
  let apiKey = '';

  beforeAll(async () => {
    const port = await freePort();
    env = { PATH: process.env.PATH ?? '', HOME: cwd, PORT: String(port), QUEUE_PREFIX: queuePrefix };
    baseUrl = `http://127.0.0.1:${port}`;
    // The README's way to a key: the CLI, in the service's directory and with its environment.
    const created = spawnSync(process.execPath, [APIKEY_CLI, 'create', '--name', 'readme'], { cwd, env, encoding: 'utf8' });
    expect(created.status, created.stderr).toBe(0);
    apiKey = /key \(shown once, store it now\): (\S+)/.exec(created.stdout)![1]!;

    const write = (name: string, content: string | Buffer) => {
      writeFileSync(join(samples, name), content);
      files.set(name, join(samples, name));
    };
    await sharp({ create: { width: 200, height: 120, channels: 3, background: '#3366cc' } }).png().toFile(join(samples, 'picture.png'));
    files.set('picture.png', join(samples, 'picture.png'));
    const words = '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="100"><rect width="400" height="100" fill="#fff"/><text x="20" y="66" font-family="DejaVu Sans" font-size="44">Fileshift</text></svg>';
    write('words.png', await sharp(Buffer.from(words)).png().toBuffer());
    write('table.csv', 'name,count\nnorth,12\nsouth,7\n');
    write('report.docx', sampleDocx());
    write('page.html', sampleHtml());
    write('notes.md', MARKUP_SAMPLES.md!);
    write('book.epub', sampleEpub());
    files.set('tone.wav', writeMediaSamples(samples).get('wav')!);
    files.set('figure.eps', ghostscriptEps(samples, 'figure', 'Fileshift figure'));
    files.set('figure.pdf', join(samples, 'figure.pdf'));
    spawnSync('gs', ['-q', '-dSAFER', '-dBATCH', '-dNOPAUSE', '-sDEVICE=pdfwrite', `-sOutputFile=${files.get('figure.pdf')}`, files.get('figure.eps')!]);
    files.set('picture.tga', writeRasterSamples(samples).get('tga')!);
    files.set('bundle.zip', writeArchiveSamples(samples).get('zip')!);

    service = spawnService(env, undefined, { cwd });
    await waitFor(async () => (await fetch(`${baseUrl}/api/x402/v1/health/ready`)).ok, 120_000, `the service started as the README says\n${service.output()}`);
  }, 240_000);

  afterAll(async () => {
    await service?.stop();
    await dropRedisKeys(queuePrefix);
    rmSync(cwd, { recursive: true, force: true });
    rmSync(samples, { recursive: true, force: true });
  });

  /** Upload, convert, download through the key API: the output's bytes. */
  async function convert(item: Case): Promise<Buffer> {
    const headers = { 'api-key': apiKey };
    const form = new FormData();
    form.set('file', new Blob([readFileSync(files.get(item.file)!)]), item.file);
    const uploaded = await fetch(`${baseUrl}/api/v1/upload`, { method: 'POST', headers, body: form });
    expect(uploaded.status, await uploaded.clone().text()).toBe(200);
    const { Filename } = (await uploaded.json()) as { Filename: string };
    const converted = await fetch(`${baseUrl}/api/v1/convert`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ filename: Filename, ext_in: item.from, ext_out: item.to }) });
    expect(converted.status, `${item.engine} ${item.from} → ${item.to}: ${await converted.clone().text()}`).toBe(200);
    const { file } = (await converted.json()) as { file: { urls: string[] } };
    const download = await fetch(new URL(file.urls[0]!, baseUrl));
    expect(download.status).toBe(200);
    return Buffer.from(await download.arrayBuffer());
  }

  it('keeps its data under the directory it started in, and says its engines are sandboxed', async () => {
    expect(service.output()).toMatch(/engines are sandboxed \(bubblewrap:.*a user of their own.*seccomp\)/);
    expect(service.output()).toContain(`embedded PGlite in ${join(cwd, '.data', 'pglite')}`);
    const ready = (await (await fetch(`${baseUrl}/api/x402/v1/health/ready`)).json()) as { engines: unknown };
    expect(ready.engines).toEqual({ workers: 1, sandboxed: 1, off: 0 });
  });

  it('converts a file through every engine class, every engine process in its sandbox', async () => {
    const serviceUid = process.getuid?.() ?? -1;
    const seen: ProcessIsolation[] = [];
    for (const item of CASES) {
      const names = new Set<string>();
      for (let attempt = 1; attempt <= MOST_TRIES && !item.programs.some((name) => names.has(name)); attempt++) {
        let output: Buffer = Buffer.alloc(0);
        const found = await censusDuring(async () => (output = await convert(item)), { root: service.child.pid!, everyMs: 2 });
        expect(output.toString('latin1'), `${item.engine}: ${item.from} → ${item.to}`).toMatch(item.magic);
        for (const process_ of found) names.add(process_.name);
        seen.push(...found.filter((process_) => !isDevChain(process_)));
      }
      expect(item.programs.some((name) => names.has(name)), `${item.engine}: none of ${item.programs.join(', ')} seen (saw ${[...names].join(', ')})`).toBe(true);
    }
    const unisolated = seen
      .map((found) => ({ command: found.commandLine.replaceAll('\0', ' ').slice(0, 200), problems: isolationProblems(found, serviceUid, { separateUser: true }) }))
      .filter((found) => found.problems.length > 0);
    expect(unisolated).toEqual([]);
  }, 600_000);
});
