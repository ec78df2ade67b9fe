import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { textPdf } from '@fileshift/testing';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_EXAMPLES } from '../src/tools/operation-examples.js';
import { call, McpHarness, structured, text } from './support/mcp-harness.js';

/** What an agent may ask for in its own words, and the word the conversion tools' descriptions must carry for it. */
const OPERATION_WORDS = ['merge', 'split', 'password', 'decrypt', 'watermark', 'rotate', 'flatten', 'metadata', 'remove GPS', 'crop', 'grayscale', 'trim', 'cut', 'frame', 'still'];
const NEW_OPTIONS = ['rotate', 'rotate_pages', 'password', 'decrypt', 'flatten', 'stamp', 'metadata', 'strip_metadata', 'split', 'crop', 'grayscale', 'trim', 'frame'];

describe('file operations through the MCP tools: joins of local files and operations as options (live service, dev chain)', () => {
  let harness: McpHarness;
  let alpha: string;
  let beta: string;
  let outside: string;

  beforeAll(async () => {
    harness = await McpHarness.start();
    alpha = join(harness.dir, 'alpha.pdf');
    beta = join(harness.dir, 'beta.pdf');
    writeFileSync(alpha, textPdf(['Alpha page one', 'Alpha page two']));
    writeFileSync(beta, textPdf(['Beta page one', 'Beta page two', 'Beta page three']));
    outside = mkdtempSync(join(tmpdir(), 'mcp-ops-outside-'));
    writeFileSync(join(outside, 'other.pdf'), textPdf(['Outside']));
  });
  afterAll(async () => {
    await harness?.stop();
    if (outside) rmSync(outside, { recursive: true, force: true });
  });

  // Readers that are not ours: qpdf counts pages and opens encrypted files, poppler reads the text.
  const pageCount = (path: string, password?: string) =>
    Number(execFileSync('qpdf', [...(password ? [`--password=${password}`] : []), '--show-npages', path], { encoding: 'utf8' }).trim());
  const pdfText = (path: string) => execFileSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' });
  /** Everything of a result an agent (or a log of it) would see. */
  const seen = (result: CallToolResult) => JSON.stringify(result);

  it('convert_file and convert_and_download: one example per operation in the description, paths and every operation option in the schema', async () => {
    const { tools } = await (await harness.connect(harness.context())).listTools();
    for (const name of ['convert_file', 'convert_and_download']) {
      const tool = tools.find((candidate) => candidate.name === name)!;
      for (const word of OPERATION_WORDS) expect(tool.description!.toLowerCase(), `${name}: ${word}`).toContain(word.toLowerCase());
      for (const example of OPERATION_EXAMPLES) expect(tool.description, name).toContain(`- ${example}`);
      const properties = tool.inputSchema.properties as Record<string, { type?: string; minItems?: number; maxItems?: number; properties?: Record<string, unknown> }>;
      expect(properties.paths, name).toMatchObject({ type: 'array', minItems: 2, maxItems: 50 });
      expect(Object.keys(properties.options!.properties!), name).toEqual(expect.arrayContaining(NEW_OPTIONS));
    }
    // One line each, short: an example is read, not studied.
    for (const example of OPERATION_EXAMPLES) expect(example.length, example).toBeLessThanOrEqual(120);
    // Detection takes one file: no paths there.
    expect(Object.keys(tools.find((tool) => tool.name === 'detect_file_type')!.inputSchema.properties!)).not.toContain('paths');
  });

  it('convert_and_download merges two local PDFs in order into one, paying one job fee and one result', async () => {
    const client = await harness.connect(harness.context());
    const before = await harness.payerBalance();
    const result = await call(client, 'convert_and_download', { paths: [alpha, beta], target_format: 'pdf', filename: 'report.pdf' });
    expect(result.isError, text(result)).toBeFalsy();
    const saved = structured<{ path: string; filename: string }>(result);
    expect(pageCount(saved.path)).toBe(5);
    const merged = pdfText(saved.path);
    expect(merged.indexOf('Beta page three')).toBeGreaterThan(merged.indexOf('Alpha page two'));
    expect(saved.path).toMatch(/report\.pdf$/);
    expect(text(result)).toContain('Converted 2 files joined as report.pdf to pdf');
    expect(await harness.payerBalance()).toBe(before - 22_000n);
  });

  it('paths are checked as a path is, and with path, url or content refused; nothing is paid', async () => {
    const context = harness.context();
    const client = await harness.connect(context);
    const before = await harness.payerBalance();
    const escaping = await call(client, 'convert_file', { paths: [alpha, join(outside, 'other.pdf')], target_format: 'pdf' });
    expect(escaping.isError).toBe(true);
    expect(text(escaping)).toContain('is outside the allowed roots');
    const both = await call(client, 'convert_file', { path: alpha, paths: [alpha, beta], target_format: 'pdf' });
    expect(both.isError).toBe(true);
    expect(text(both)).toContain('This call gave path and paths');
    const one = await call(client, 'convert_file', { paths: [alpha], target_format: 'pdf' });
    expect(one.isError).toBe(true);
    const missing = await call(client, 'convert_and_download', { paths: [alpha, join(harness.dir, 'missing.pdf')], target_format: 'pdf' });
    expect(missing.isError).toBe(true);
    expect(context.ledger.total()).toBe(0n);
    expect(await harness.payerBalance()).toBe(before);
  });

  it('protects a PDF with a password that qpdf then needs, and never writes the password anywhere: not on stderr, the console or in a result', async () => {
    const password = 'pw-7f3a9c-never-logged';
    const written: string[] = [];
    const stderrWrite = process.stderr.write.bind(process.stderr);
    const stdoutWrite = process.stdout.write.bind(process.stdout);
    const originals = { log: console.log, error: console.error, warn: console.warn, info: console.info, debug: console.debug };
    const capture = (...args: unknown[]) => void written.push(args.map(String).join(' '));
    process.stderr.write = ((chunk: unknown, ...rest: unknown[]) => (written.push(String(chunk)), stderrWrite(chunk as string, ...(rest as [])))) as typeof process.stderr.write;
    process.stdout.write = ((chunk: unknown, ...rest: unknown[]) => (written.push(String(chunk)), stdoutWrite(chunk as string, ...(rest as [])))) as typeof process.stdout.write;
    Object.assign(console, { log: capture, error: capture, warn: capture, info: capture, debug: capture });
    try {
      // The capture sees what is written (else the checks below would pass on nothing).
      console.error('console-canary');
      process.stderr.write('stderr-canary\n');
      expect(written).toEqual(['console-canary', 'stderr-canary\n']);
      const client = await harness.connect(harness.context());
      const result = await call(client, 'convert_and_download', { path: alpha, target_format: 'pdf', options: { password: { user: password } } });
      expect(result.isError, text(result)).toBeFalsy();
      const locked = structured<{ path: string }>(result).path;
      expect(spawnSync('qpdf', ['--show-npages', locked], { encoding: 'utf8' }).status).not.toBe(0);
      expect(pageCount(locked, password)).toBe(2);
      expect(seen(result)).not.toContain(password);

      // A wrong password to decrypt: the job fails, and the message does not repeat what was given.
      const wrong = 'wrong-5d1e-never-logged';
      const lockedCopy = join(harness.dir, 'locked.pdf');
      writeFileSync(lockedCopy, readFileSync(locked));
      const refused = await call(client, 'convert_and_download', { path: lockedCopy, target_format: 'pdf', options: { decrypt: wrong } });
      expect(refused.isError).toBe(true);
      expect(seen(refused)).not.toContain(wrong);
      const opened = await call(client, 'convert_and_download', { path: lockedCopy, target_format: 'pdf', options: { decrypt: password } });
      expect(opened.isError, text(opened)).toBeFalsy();
      expect(pageCount(structured<{ path: string }>(opened).path)).toBe(2);
      expect(seen(opened)).not.toContain(password);
      for (const secret of [password, wrong]) expect(written.filter((line) => line.includes(secret))).toEqual([]);
    } finally {
      process.stderr.write = stderrWrite;
      process.stdout.write = stdoutWrite;
      Object.assign(console, originals);
    }
  });
});
