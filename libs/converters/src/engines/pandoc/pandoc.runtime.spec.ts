import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PANDOC_DESCRIPTOR } from './pandoc.descriptor.js';
import { PandocRuntime } from './pandoc.runtime.js';
import { expectMarkup, MARKUP_SAMPLES, SAMPLE_HEADING, sampleDocx, zipText } from '../../../testing/index.js';
import { convertStep, expectFailure } from '../../../test/support/test-context.js';

const dir = mkdtempSync(join(tmpdir(), 'fileshift-pandoc-'));
/** Outside any job's scratch directory: what hostile documents try to read. */
const outside = mkdtempSync(join(tmpdir(), 'fileshift-pandoc-outside-'));
const SECRET = 'FILESHIFT-SECRET-CANARY';
const secretFile = join(outside, 'secret.tex');
afterAll(() => {
  for (const path of [dir, outside]) rmSync(path, { recursive: true, force: true });
});
const write = (name: string, content: string | Buffer) => {
  writeFileSync(join(dir, name), content);
  return join(dir, name);
};

describe('PandocRuntime (Debian package pandoc)', () => {
  const runtime = new PandocRuntime();

  beforeAll(async () => {
    const probe = await runtime.probe();
    if (!probe.available) console.error(`\n*** ENGINE MISSING: pandoc (${probe.problem}). Install the Debian package pandoc; these tests FAIL without it. ***\n`);
  });

  it('is installed on this machine', async () => {
    expect((await runtime.probe()).available).toBe(true);
  });

  it('never offers a pair between two office formats (LibreOffice keeps their layout), nor docx or epub outputs', () => {
    const office = new Set(['html', 'docx', 'odt', 'rtf', 'txt']);
    expect(PANDOC_DESCRIPTOR.pairs.filter((pair) => office.has(pair.from) && office.has(pair.to))).toEqual([]);
    expect(PANDOC_DESCRIPTOR.pairs.filter((pair) => pair.to === 'docx' || pair.to === 'epub')).toEqual([]);
  });

  it('turns a DOCX into GitHub Markdown: heading, and the table as a pipe table', async () => {
    const [md] = (await convertStep(runtime, { inputPath: write('report.docx', sampleDocx()), from: 'docx', to: 'md' }, dir)) as [string];
    const text = readFileSync(md, 'utf8');
    expect(text).toMatch(new RegExp(`^# ${SAMPLE_HEADING}`, 'm'));
    expect(text).toMatch(/^\|.*alpha.*\|$/m);
  });

  it('writes an ODT from Markdown under the sandbox (its reference document given as a file)', async () => {
    const [odt] = (await convertStep(runtime, { inputPath: write('notes.md', MARKUP_SAMPLES.md!), from: 'md', to: 'odt' }, dir)) as [string];
    expect(zipText(odt, 'mimetype')).toBe('application/vnd.oasis.opendocument.text');
    expect(zipText(odt, 'content.xml')).toContain(SAMPLE_HEADING);
    expect(zipText(odt, 'content.xml')).toContain('table:table');
  });

  it('reads a notebook and writes one back', async () => {
    const [md] = (await convertStep(runtime, { inputPath: write('nb.ipynb', MARKUP_SAMPLES.ipynb!), from: 'ipynb', to: 'md' }, dir)) as [string];
    expect(readFileSync(md, 'utf8')).toContain('print("hi")');
    const [notebook] = (await convertStep(runtime, { inputPath: write('again.md', MARKUP_SAMPLES.md!), from: 'md', to: 'ipynb' }, dir)) as [string];
    expectMarkup(notebook, 'ipynb', SAMPLE_HEADING);
  });

  it('reports a corrupt input as unsupported_or_corrupt_input, without paths', async () => {
    const corrupt = write('broken.docx', Buffer.from('PK\x03\x04 not really a zip'));
    await expectFailure(convertStep(runtime, { inputPath: corrupt, from: 'docx', to: 'md' }, dir), 'unsupported_or_corrupt_input', dir);
  });
});

/**
 * Classic attacks on a markup converter: LaTeX \input, reStructuredText include and Org #+INCLUDE read files of
 * the machine; an image URL is fetched to embed it. A pandoc without --sandbox (the positive control) does each;
 * the runtime does none.
 */
describe('hostile markup: file includes and remote images', () => {
  const runtime = new PandocRuntime();
  const requests: string[] = [];
  let canary: Server;
  let imageUrl = '';
  const includes: Record<string, string> = {};

  beforeAll(async () => {
    writeFileSync(secretFile, `${SECRET}\n`);
    canary = createServer((request, response) => {
      requests.push(request.url ?? '');
      response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
    imageUrl = `http://127.0.0.1:${(canary.address() as AddressInfo).port}/canary.png`;
    includes.tex = write('include.tex', `\\documentclass{article}\n\\begin{document}\n\\section{${SAMPLE_HEADING}}\n\\input{${secretFile.replace(/\.tex$/, '')}}\n\\end{document}\n`);
    includes.rst = write('include.rst', `${SAMPLE_HEADING}\n${'='.repeat(SAMPLE_HEADING.length)}\n\n.. include:: ${secretFile}\n`);
    includes.org = write('include.org', `* ${SAMPLE_HEADING}\n\n#+INCLUDE: "${secretFile}"\n`);
  });
  afterAll(() => new Promise((resolve) => canary.close(resolve)));

  for (const from of ['tex', 'rst', 'org'] as const) {
    it(`${from}: an include of a file outside is followed by an unsandboxed pandoc, never by the runtime`, async () => {
      const reader = { tex: 'latex', rst: 'rst', org: 'org' }[from];
      expect(execFileSync('pandoc', ['-f', reader, '-t', 'plain', includes[from]!], { encoding: 'utf8' })).toContain(SECRET);
      const [md] = (await convertStep(runtime, { inputPath: includes[from]!, from, to: 'md' }, dir)) as [string];
      const text = readFileSync(md, 'utf8');
      expect(text).toContain(SAMPLE_HEADING);
      expect(text).not.toContain(SECRET);
    });
  }

  it('an image URL is fetched by an unsandboxed pandoc writing ODT, never by the runtime', async () => {
    const md = write('remote-image.md', `# ${SAMPLE_HEADING}\n\n![remote](${imageUrl})\n`);
    // Asynchronously: the canary answers from this process.
    await promisify(execFile)('pandoc', ['-f', 'markdown', '-t', 'odt', '-o', join(dir, 'control.odt'), md]);
    expect(requests).toEqual(['/canary.png']);
    for (const to of ['odt', 'rtf', 'html']) await convertStep(runtime, { inputPath: md, from: 'md', to }, dir);
    expect(requests).toEqual(['/canary.png']);
  });
});
