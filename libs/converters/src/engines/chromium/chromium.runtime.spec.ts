import { execFile, execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineSandbox } from '../../platform/sandbox/engine-sandbox.js';
import { convertStep, expectFailure } from '../../../test/support/test-context.js';
import { pgrep } from '../../../testing/document-checks.js';
import { CANARY_TEXT, canaryTraces, describeTraces, writeCanaryFiles } from '../../../testing/canary-files.js';
import { pdfInfo, pdfText } from '../../../testing/document-checks.js';
import { sampleHtml, SAMPLE_HEADING } from '../../../testing/office-samples.js';
import { CHROMIUM_BINARY } from './chromium.descriptor.js';
import { ChromiumRuntime } from './chromium.runtime.js';

const dir = mkdtempSync(join(tmpdir(), 'fileshift-chromium-'));
const runtime = new ChromiumRuntime({ workRoot: dir, pagesPerBrowser: 3 });
afterAll(async () => {
  await runtime.stop();
  rmSync(dir, { recursive: true, force: true });
});

const write = (name: string, html: string) => {
  const path = join(dir, name);
  writeFileSync(path, html);
  return path;
};
/** The browsers of this file's runtimes: their main processes (not bubblewrap, nice, or the renderers, whose command lines name them too). */
const browserPids = (root: string) =>
  pgrep('remote-debugging-pipe').filter((pid) => {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return args[0] === CHROMIUM_BINARY && !args.some((arg) => arg.startsWith('--type=')) && args.some((arg) => arg.startsWith(`--user-data-dir=${root}/fileshift-`));
  });
const pageSize = (pdf: string) => /^Page size:\s+([\d.]+) x ([\d.]+) pts/m.exec(pdfInfo(pdf))!.slice(1).map(Number);

describe('ChromiumRuntime', () => {
  beforeAll(() => runtime.start());

  it('is installed and answers in the engine sandbox', async () => {
    const probe = await runtime.probe();
    if (!probe.available) console.error(`\n*** ENGINE MISSING: chromium (${probe.problem}); these tests FAIL without it. ***\n`);
    expect(probe).toMatchObject({ available: true, version: expect.stringMatching(/^Chromium \d+/) });
  });

  it('prints HTML to PDF: text, table, A4 by default, or the paper and margin asked for', async () => {
    const input = write('page.html', sampleHtml());
    const [pdf] = await convertStep(runtime, { inputPath: input, from: 'html', to: 'pdf' }, dir);
    expect(pdfText(pdf!)).toContain(SAMPLE_HEADING);
    expect(pdfText(pdf!)).toMatch(/alpha\s+beta/);
    // A4 is 595.3 × 841.9 points; Chromium rounds to whole points.
    const [width, height] = pageSize(pdf!);
    expect(Math.abs(width! - 595.3)).toBeLessThan(1);
    expect(Math.abs(height! - 841.9)).toBeLessThan(1);
    const [letter] = await convertStep(runtime, { inputPath: input, from: 'html', to: 'pdf', options: { paper: 'letter', margin: 0 } }, dir);
    expect(pageSize(letter!).map(Math.round)).toEqual([612, 792]);
    // With no margin the text starts at the page's edge: its bounding box's left is near 0.
    const box = execFileSync('pdftotext', ['-bbox', letter!, '-'], { encoding: 'utf8' });
    expect(Number(/<word xMin="([\d.]+)"/.exec(box)![1])).toBeLessThan(15);
  });

  it('takes a screenshot of the whole page as PNG and JPEG, 1280 pixels wide', async () => {
    const tall = write('tall.html', sampleHtml('<div style="height: 3000px; background: #2266aa">tall</div>'));
    const [png] = await convertStep(runtime, { inputPath: tall, from: 'html', to: 'png' }, dir);
    const [jpg] = await convertStep(runtime, { inputPath: tall, from: 'html', to: 'jpg', options: { quality: 60 } }, dir);
    for (const [file, format] of [[png!, 'png'], [jpg!, 'jpeg']] as const) {
      const meta = await sharp(file).metadata();
      expect(meta.format).toBe(format);
      expect(meta.width).toBe(1280);
      expect(meta.height).toBeGreaterThan(3000);
    }
  });

  it('runs no JavaScript', async () => {
    const input = write('script.html', sampleHtml('<p id="x">static</p><script>document.getElementById("x").textContent = "SCRIPT RAN"; document.write("WRITTEN BY SCRIPT");</script><noscript>no script here</noscript>'));
    const text = pdfText((await convertStep(runtime, { inputPath: input, from: 'html', to: 'pdf' }, dir))[0]!);
    expect(text).toContain('static');
    expect(text).not.toMatch(/SCRIPT RAN|WRITTEN BY SCRIPT/);
  });

  it('a new browser after the pages it may serve; a dead one is replaced; a page past its time kills it and fails as timeout', async () => {
    const root = mkdtempSync(join(dir, 'supervised-'));
    const supervised = new ChromiumRuntime({ workRoot: root, pagesPerBrowser: 2 });
    try {
      await supervised.start();
      const input = write('small.html', sampleHtml());
      const convert = async () => pdfText((await convertStep(supervised, { inputPath: input, from: 'html', to: 'pdf' }, dir))[0]!);
      const [first] = browserPids(root);
      expect(first).toBeDefined();
      await convert();
      await convert();
      expect(await convert()).toContain(SAMPLE_HEADING);
      const [second] = browserPids(root);
      expect(second).toBeDefined();
      expect(second).not.toBe(first);
      process.kill(second!, 'SIGKILL');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await convert()).toContain(SAMPLE_HEADING);
      const big = write('big.html', sampleHtml('<table>' + '<tr><td>cell</td><td>cell</td></tr>'.repeat(200_000) + '</table>'));
      await expectFailure(convertStep(supervised, { inputPath: big, from: 'html', to: 'pdf' }, dir, { limits: { ...supervised.descriptor.limits, timeoutMs: 300 } }), 'timeout', dir);
      expect(await convert()).toContain(SAMPLE_HEADING);
    } finally {
      await supervised.stop();
    }
    expect(browserPids(root)).toEqual([]);
  }, 120_000);
});

/** A page naming a canary server and canary files every way a page can fetch: pictures, frames, style sheets, fonts, scripts, media, a refresh. */
function hostilePage(canary: string, job: string): string {
  const file = (name: string) => pathToFileURL(join(job, name)).href;
  return sampleHtml(
    [
      `<img src="${canary}/img.png"><img src="${file('canary.png')}"><img src="canary.png">`,
      `<iframe src="${canary}/frame"></iframe><iframe src="${file('canary.xhtml')}"></iframe><iframe src="canary.txt"></iframe>`,
      `<object data="${file('canary.txt')}" type="text/plain"></object><embed src="${canary}/embed">`,
      `<div style="background-image: url('${canary}/background.png'); height: 40px"></div>`,
      `<script>fetch("${canary}/fetch"); new Image().src = "${canary}/script-image";</script>`,
      `<video src="${canary}/video.mp4" poster="${canary}/poster.png"></video><audio src="${file('canary.txt')}"></audio>`,
    ].join('\n'),
  ).replace(
    '</head>',
    `<link rel="stylesheet" href="${canary}/style.css"><link rel="stylesheet" href="${file('canary.css')}"><link rel="stylesheet" href="canary.css">` +
      `<link rel="preload" href="${canary}/preload" as="fetch"><style>@import url("${canary}/import.css"); @font-face { font-family: x; src: url("${canary}/font.woff"); } body { font-family: x; }</style></head>`,
  );
}

/**
 * A page may name files and URLs; Chromium fetches none of them: every request but the page's own file is refused
 * (through DevTools, not only by the sandbox's missing network), and JavaScript is off. Checked with the sandbox
 * off too, where only the refusals stand between the page and the machine; a plain headless Chromium shows the
 * references are live.
 */
describe('Chromium: a page reads no file and no URL it names', () => {
  const job = mkdtempSync(join(dir, 'job-'));
  let server: Server;
  let canary = '';
  const hits: string[] = [];
  beforeAll(async () => {
    await writeCanaryFiles(job);
    server = createServer((request, response) => {
      hits.push(request.url ?? '');
      response.end(CANARY_TEXT);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    canary = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => server.close());

  it('positive control: a plain headless Chromium fetches from the canary server and draws the canary files', async () => {
    const input = join(job, 'control.html');
    writeFileSync(input, hostilePage(canary, job));
    const output = join(job, 'control.pdf');
    // Asynchronously: the canary server answers from this process.
    await promisify(execFile)(CHROMIUM_BINARY, ['--headless', '--no-sandbox', '--disable-gpu', `--user-data-dir=${join(job, 'control-profile')}`, `--print-to-pdf=${output}`, pathToFileURL(input).href], { timeout: 60_000 });
    expect(hits.length).toBeGreaterThan(3);
    expect(describeTraces(await canaryTraces(output, 'pdf', SAMPLE_HEADING))).not.toBe('');
    hits.length = 0;
  }, 60_000);

  it.each([
    ['sandboxed', undefined],
    ['with the sandbox off', EngineSandbox.unsandboxed('test')],
  ] as const)('%s: no request reaches the canary server, no canary file reaches the output', async (_label, sandbox) => {
    const isolated = new ChromiumRuntime({ workRoot: job, sandbox });
    try {
      const input = join(job, 'page.html');
      writeFileSync(input, hostilePage(canary, job));
      const redirect = join(job, 'redirect.html');
      writeFileSync(redirect, `<html><head><meta http-equiv="refresh" content="0; url=${canary}/refresh"></head><body><p>${SAMPLE_HEADING}</p></body></html>`);
      for (const to of ['pdf', 'png'] as const) {
        const [output] = await convertStep(isolated, { inputPath: input, from: 'html', to }, job);
        const traces = await canaryTraces(output!, to, SAMPLE_HEADING);
        expect(describeTraces(traces), to).toBe('');
        if (to === 'pdf') expect(traces.ownText).toBe(true);
      }
      const [refreshed] = await convertStep(isolated, { inputPath: redirect, from: 'html', to: 'pdf' }, job);
      expect(pdfText(refreshed!)).toContain(SAMPLE_HEADING);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(hits).toEqual([]);
    } finally {
      await isolated.stop();
    }
  }, 60_000);
});
