import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeAllowed, SECRET_OPTION_NAMES, validateOptions } from '../option-catalogue.js';
import type { ConversionOptions } from '../../platform/conversion-options.js';
import { ConversionGraph } from '../../platform/conversion-graph.js';
import { plansTaking } from '../../platform/conversion-plan.js';
import type { StepContext } from '../../platform/engine-runtime.js';
import { SandboxedProcessRunner, type SandboxedRun } from '../../platform/sandboxed-process.runner.js';
import { ENGINE_DESCRIPTORS } from '../engines.js';
import { QPDF_DESCRIPTOR } from './qpdf.descriptor.js';
import { QpdfRuntime } from './qpdf.runtime.js';
import { expectFailure, leftovers, testContext } from '../../../test/support/test-context.js';
import { handPdf, qpdfEncrypted, reportMissingEngine, run } from '../../../testing/pdf-samples.js';
import { pdfPages, pdfText, zipEntries } from '../../../testing/document-checks.js';

const workRoot = mkdtempSync(join(tmpdir(), 'fileshift-qpdf-work-'));
// The test's files live in the engine's scratch directory, as a job's input does: only it is bound into the sandbox.
const dir = mkdtempSync(join(workRoot, 'files-'));
afterAll(() => rmSync(workRoot, { recursive: true, force: true }));

/** What qpdf's own reader says of a file's encryption, opened with `password` (from a file: not on our argv either). */
const showEncryption = (pdf: string, password: string) => {
  const file = join(dir, 'password.txt');
  writeFileSync(file, password);
  return run('qpdf', ['--show-encryption', `--password-file=${file}`, pdf]);
};
/** Each page's /Rotate as pdfinfo reads it. */
const rotations = (pdf: string, ...password: string[]) =>
  [...run('pdfinfo', [...(password.length ? ['-upw', password[0]!] : []), '-f', '1', '-l', '9999', pdf]).matchAll(/^Page\s+\d+ rot:\s+(\d+)$/gm)].map((match) => Number(match[1]));
/** The text of one page. */
const pageText = (pdf: string, page: number, ...args: string[]) => run('pdftotext', [...args, '-f', String(page), '-l', String(page), pdf, '-']);
/** Its text in the content streams' order without white space: a turned stamp comes out a letter a line. */
const rawLetters = (pdf: string, page: number) => pageText(pdf, page, '-raw').replace(/\s+/g, '');
const encryptedLine = (pdf: string) => /^Encrypted:\s+(.*)$/m.exec(run('pdfinfo', [pdf]))?.[1];

/** A PDF of these objects (the first the catalog), each at the offset its cross-reference entry says. */
function pdfOfObjects(objects: readonly string[]): Buffer {
  let body = '%PDF-1.4\n';
  const offsets = objects.map((object, index) => {
    const offset = body.length;
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
    return offset;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
  return Buffer.from(`${body}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`, 'latin1');
}
const stream = (content: string) => `<< /Length ${content.length} >>\nstream\n${content}\nendstream`;
const FONT = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';

/** A page tree whose inner node lists the root as its kid: a loop. */
const loopingPdf = () =>
  pdfOfObjects([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Count 2 /Kids [3 0 R 4 0 R] >>',
    '<< /Type /Pages /Parent 2 0 R /Count 1 /Kids [2 0 R] >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R /Resources << /Font << /F1 6 0 R >> >> >>',
    stream('BT /F1 24 Tf 72 700 Td (Loop) Tj ET'),
    FONT,
  ]);

/** A filled text field (no appearance yet: NeedAppearances, as form fillers write it) and a square annotation. */
const formPdf = () =>
  pdfOfObjects([
    '<< /Type /Catalog /Pages 2 0 R /AcroForm << /NeedAppearances true /Fields [5 0 R] /DA (/Helv 0 Tf 0 g) /DR << /Font << /Helv 6 0 R >> >> >> >>',
    '<< /Type /Pages /Count 1 /Kids [3 0 R] >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 6 0 R >> >> /Contents 4 0 R /Annots [5 0 R 7 0 R] >>',
    stream('BT /F1 24 Tf 72 700 Td (A form) Tj ET'),
    '<< /Type /Annot /Subtype /Widget /FT /Tx /T (name) /V (Filled value) /Rect [72 600 400 630] /DA (/Helv 14 Tf 0 g) /F 4 /P 3 0 R >>',
    FONT,
    '<< /Type /Annot /Subtype /Square /Rect [72 500 200 560] /C [1 0 0] /F 4 /Contents (a note) >>',
  ]);

describe('QpdfRuntime (Debian packages qpdf, poppler-utils)', () => {
  /** Every run the runtime asks of the sandbox, and the job file each read, as it was when the run started. */
  const runs: Array<{ run: SandboxedRun; jobMode?: number; job?: string }> = [];
  const base = new SandboxedProcessRunner().forEngine(QPDF_DESCRIPTOR);
  const recording = {
    forEngine: () => recording,
    run: async (sandboxed: SandboxedRun) => {
      const jobFile = /^--job-json-file=(.*)$/.exec(sandboxed.args[0] ?? '')?.[1];
      runs.push({ run: sandboxed, ...(jobFile ? { jobMode: statSync(jobFile).mode & 0o777, job: readFileSync(jobFile, 'utf8') } : {}) });
      return base.run(sandboxed);
    },
  } as unknown as SandboxedProcessRunner;
  const runtime = new QpdfRuntime(recording);

  let five = '';
  let locked = '';
  let turned = '';
  let steps = 0;
  /** One step into a fresh output directory; its files and notes. */
  const step = async (inputPath: string, options: ConversionOptions, to = 'pdf', context: Partial<StepContext> = {}) => {
    const outputDir = join(dir, `step-${++steps}`);
    mkdirSync(outputDir);
    return runtime.convert({ inputPath, outputDir, from: 'pdf', to, options }, { ...testContext(runtime, workRoot), ...context });
  };
  const out = async (inputPath: string, options: ConversionOptions, to = 'pdf') => (await step(inputPath, options, to)).files[0]!;
  const join2 = async (members: Array<{ path: string; name: string }>, context: Partial<StepContext> = {}) => {
    const outputDir = join(dir, `join-${++steps}`);
    mkdirSync(outputDir);
    return runtime.join({ members: members.map((member) => ({ ...member, format: 'pdf' })), outputDir, to: 'pdf', options: {} }, { ...testContext(runtime, workRoot), ...context });
  };

  beforeAll(async () => {
    const probe = await runtime.probe();
    if (!probe.available) {
      reportMissingEngine('qpdf', probe.problem, QPDF_DESCRIPTOR.debianPackages);
      return;
    }
    five = handPdf(dir, 'five', ['Page one', 'Page two', 'Page three', 'Page four', 'Page five']);
    locked = qpdfEncrypted(five, join(dir, 'locked.pdf'), 'open sesame');
    turned = join(dir, 'turned.pdf');
    run('qpdf', [five, '--rotate=+90:2', turned]);
  });

  it('is installed on this machine and says which version', async () => {
    const probe = await runtime.probe();
    expect(probe.available).toBe(true);
    expect(probe.version).toMatch(/^qpdf version \d+\.\d+/);
  });

  it('names the Debian packages when qpdf is missing', async () => {
    const probe = await new QpdfRuntime(undefined, 'qpdf-not-installed').probe();
    expect(probe.available).toBe(false);
    expect(probe.problem).toContain('apt-get install qpdf poppler-utils');
  });

  describe('rotate', () => {
    it('turns every page by default, and only rotate_pages when given, adding to a page\'s own /Rotate', async () => {
      expect(rotations(await out(five, { rotate: 90 }))).toEqual([90, 90, 90, 90, 90]);
      expect(rotations(await out(five, { rotate: 180, rotate_pages: '1-2,4' }))).toEqual([180, 180, 0, 180, 0]);
      // Page 2 of `turned` is at 90 already.
      const both = await out(turned, { rotate: 270, rotate_pages: '2-3' });
      expect(rotations(both)).toEqual([0, 0, 270, 0, 0]);
      expect(pdfPages(both)).toBe(5);
      expect(pdfText(both)).toContain('Page five');
    });

    it('says rotate_pages turned nothing without rotate', async () => {
      const { files, notes } = await step(five, { rotate_pages: '1', flatten: true });
      expect(rotations(files[0]!)).toEqual([0, 0, 0, 0, 0]);
      expect(notes).toEqual(['rotate_pages was given without rotate: no page was turned.']);
    });

    it('refuses pages that do not exist', async () => {
      const error = await expectFailure(step(five, { rotate: 90, rotate_pages: '7-9' }), 'unsupported_or_corrupt_input', dir);
      expect(error.message).toBe('The PDF has 5 pages: none of the pages rotate_pages names (7-9) exists.');
    });
  });

  describe('password and decrypt', () => {
    it('encrypts with AES-256 (R6): the user password opens it, the owner password too, nothing opens it without', async () => {
      const pdf = await out(five, { password: { user: 'reader pass', owner: 'owner pass' } });
      const asUser = showEncryption(pdf, 'reader pass');
      expect(asUser).toMatch(/^R = 6$/m);
      expect(asUser).toMatch(/^file encryption method: AESv3$/m);
      expect(asUser).toContain('Supplied password is user password');
      expect(showEncryption(pdf, 'owner pass')).toContain('Supplied password is owner password');
      expect(showEncryption(pdf, 'wrong')).toContain('Incorrect password supplied');
      expect(() => run('pdfinfo', [pdf])).toThrow(/Incorrect password/);
      expect(run('pdftotext', ['-upw', 'reader pass', pdf, '-'])).toContain('Page three');
      // Nothing restricted.
      expect(asUser).not.toMatch(/: not allowed$/m);
    });

    it('makes the owner password the user\'s when none is given', async () => {
      const pdf = await out(five, { password: { user: 'only one' } });
      expect(showEncryption(pdf, 'only one')).toContain('Supplied password is owner password');
    });

    it('turns pages and encrypts in one run', async () => {
      runs.length = 0;
      const pdf = await out(five, { rotate: 90, rotate_pages: '5', password: { user: 'pw' } });
      expect(runs.filter(({ job }) => job !== undefined)).toHaveLength(1);
      expect(rotations(pdf, 'pw')).toEqual([0, 0, 0, 0, 90]);
      expect(showEncryption(pdf, 'pw')).toMatch(/^R = 6$/m);
    });

    it('decrypts with the password: the output opens without one and keeps every page', async () => {
      const pdf = await out(locked, { decrypt: 'open sesame' });
      expect(encryptedLine(pdf)).toBe('no');
      expect(pdfPages(pdf)).toBe(5);
      expect(pdfText(pdf)).toMatch(/Page one[\s\S]*Page five/);
    });

    it('re-encrypts with decrypt and password: the new password opens it, the old one no longer', async () => {
      const pdf = await out(locked, { decrypt: 'open sesame', password: { user: 'new pass' } });
      expect(showEncryption(pdf, 'new pass')).toContain('Supplied password is');
      expect(showEncryption(pdf, 'open sesame')).toContain('Incorrect password supplied');
    });

    it('refuses a wrong password in clear words, which name no password', async () => {
      const error = await expectFailure(step(locked, { decrypt: 'not the password', rotate: 90 }), 'unsupported_or_corrupt_input', dir);
      expect(error.message).toBe('The password does not open this PDF.');
      expect(error.diagnostics ?? '').not.toContain('not the password');
    });

    it('refuses an encrypted PDF without decrypt in every operation, saying a password is needed', async () => {
      for (const [options, to] of [[{ rotate: 90 }, 'pdf'], [{ stamp: { text: 'X' } }, 'pdf'], [{ flatten: true }, 'pdf'], [{ password: { user: 'a' } }, 'pdf'], [{ split: { every: 1 } }, 'zip']] as const) {
        const error = await expectFailure(step(locked, options, to), 'security_rejected', dir);
        expect(error.message, JSON.stringify(options)).toBe('The PDF is password-protected: give its password with the decrypt option.');
      }
      const error = await expectFailure(join2([{ path: five, name: 'open.pdf' }, { path: locked, name: 'locked.pdf' }]), 'security_rejected', dir);
      expect(error.message).toMatch(/^File 2 \(locked\.pdf\): The PDF is password-protected/);
    });

    it('opens a PDF its owner restricts only with the owner password (the output would lose the restrictions)', async () => {
      const restricted = qpdfEncrypted(five, join(dir, 'restricted.pdf'), 'user pass', ['--print=none']);
      const byUser = await expectFailure(step(restricted, { decrypt: 'user pass' }), 'security_rejected', dir);
      expect(byUser.message).toMatch(/not its owner password/);
      // qpdfEncrypted's owner password.
      const pdf = await out(restricted, { decrypt: 'owner-secret' });
      expect(encryptedLine(pdf)).toBe('no');
      // Restricted by an owner password alone: it opens, but is not rewritten without that password.
      const ownerOnly = qpdfEncrypted(five, join(dir, 'owner-only.pdf'), '', ['--modify=none']);
      const refused = await expectFailure(step(ownerOnly, { rotate: 90 }), 'security_rejected', dir);
      expect(refused.message).toMatch(/permissions restrict[\s\S]*decrypt option/);
      expect(rotations(await out(ownerOnly, { rotate: 90, decrypt: 'owner-secret' }))).toEqual([90, 90, 90, 90, 90]);
    });

    it('says decrypt was not needed for a PDF without a password', async () => {
      const { notes } = await step(five, { decrypt: 'anything' });
      expect(notes).toEqual(['The PDF had no password: decrypt was not needed.']);
    });

    it('never puts a password on a command line: every qpdf run reads a job file of mode 0600, removed after', async () => {
      runs.length = 0;
      await out(locked, { decrypt: 'open sesame', password: { user: 'secret user', owner: 'secret owner' }, stamp: { text: 'Stamped' } });
      const qpdfRuns = runs.filter(({ run: sandboxed }) => sandboxed.command === 'qpdf');
      expect(qpdfRuns.length).toBeGreaterThanOrEqual(3);
      for (const { run: sandboxed, jobMode } of qpdfRuns) {
        expect(sandboxed.args).toHaveLength(1);
        expect(jobMode).toBe(0o600);
      }
      for (const { run: sandboxed } of runs) for (const secret of ['open sesame', 'secret user', 'secret owner']) expect(sandboxed.args.join(' ')).not.toContain(secret);
      // The passwords went through the job files.
      expect(qpdfRuns.some(({ job }) => job?.includes('"open sesame"'))).toBe(true);
      expect(qpdfRuns.some(({ job }) => job?.includes('"secret owner"'))).toBe(true);
      expect(leftovers(workRoot, dir)).toEqual([]);
    });
  });

  describe('flatten', () => {
    it('draws form fields and annotations into the page: the field\'s value is page text, no annotation or form is left', async () => {
      const form = join(dir, 'form.pdf');
      writeFileSync(form, formPdf());
      expect(run('pdfinfo', [form])).toMatch(/^Form:\s+AcroForm$/m);
      const pdf = await out(form, { flatten: true });
      expect(run('pdfinfo', [pdf])).toMatch(/^Form:\s+none$/m);
      expect(pdfText(pdf)).toContain('Filled value');
      const page = (JSON.parse(run('qpdf', ['--json', '--json-key=pages', pdf])) as { pages: Array<{ object: string }> }).pages[0]!.object;
      const pageObject = run('qpdf', [`--show-object=${page.split(' ')[0]}`, pdf]);
      expect(pageObject).toMatch(/\/Contents/);
      expect(pageObject).not.toMatch(/\/Annots/);
    });
  });

  describe('stamp', () => {
    it('stamps the pages asked for, and only those, where pdftotext reads the text', async () => {
      const pdf = await out(five, { stamp: { text: 'DRAFT COPY', pages: '1,3-4' } });
      expect(pdfPages(pdf)).toBe(5);
      expect([1, 2, 3, 4, 5].map((page) => pageText(pdf, page).includes('DRAFT COPY'))).toEqual([true, false, true, true, false]);
      for (const page of [1, 2, 3, 4, 5]) expect(pageText(pdf, page)).toContain(['one', 'two', 'three', 'four', 'five'][page - 1]);
    });

    it('turns the stamp by its angle: a diagonal reads letter by letter, in order', async () => {
      const pdf = await out(five, { stamp: { text: 'CONFIDENTIAL', angle: 45, pages: '2' } });
      expect(rawLetters(pdf, 2)).toContain('CONFIDENTIAL');
      expect(pageText(pdf, 2)).not.toContain('CONFIDENTIAL');
      expect(rawLetters(pdf, 1)).not.toContain('CONFIDENTIAL');
    });

    it('writes Latin-1 and WinAnsi\'s typographic characters as they are', async () => {
      const text = 'Entwurf – für “Müller” €5';
      const pdf = await out(five, { stamp: { text, angle: 0, pages: '2' } });
      expect(pageText(pdf, 2)).toContain(text);
    });

    it('stands upright at the top of a turned page, as a viewer shows it, and after rotate', async () => {
      for (const [input, options] of [
        [turned, { stamp: { text: 'TOP MARK', position: 'top', pages: '2' } }],
        [five, { rotate: 270, rotate_pages: '2', stamp: { text: 'TOP MARK', position: 'top', pages: '2' } }],
      ] as const) {
        const pdf = await out(input, options);
        // pdftotext's boxes are in the page as shown: x along the top edge, y down from it.
        const word = /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">TOP<\/word>/.exec(pageText(pdf, 2, '-bbox'));
        expect(word, JSON.stringify(options)).not.toBeNull();
        const [xMin, yMin, xMax, yMax] = word!.slice(1).map(Number) as [number, number, number, number];
        expect(xMax - xMin).toBeGreaterThan(yMax - yMin);
        expect(yMin).toBeLessThan(60);
        // A landscape page as shown: 792 wide.
        expect((xMin + xMax) / 2).toBeGreaterThan(300);
      }
    });

    it('draws a stamp too large for a page smaller, and says so', async () => {
      const { files, notes } = await step(five, { stamp: { text: 'This stamp is far too long to fit across a letter page', size: 200, angle: 0, pages: '1' } });
      expect(pageText(files[0]!, 1)).toContain('This stamp is far too long to fit across a letter page');
      expect(notes).toEqual(['The stamp was drawn smaller than asked on some pages, to fit them.']);
    });
  });

  describe('split (pdf → zip)', () => {
    /** Each part of the ZIP: its name, page count and text. */
    const parts = (zip: string) => {
      const unpacked = mkdtempSync(join(workRoot, 'unzipped-'));
      execFileSync('unzip', ['-q', zip, '-d', unpacked]);
      const read = zipEntries(zip).map((name) => ({ name, pages: pdfPages(join(unpacked, name)), text: pdfText(join(unpacked, name)).replace(/\s+/g, ' ').trim() }));
      rmSync(unpacked, { recursive: true, force: true });
      return read;
    };

    it('makes a part every n pages, the last what is left', async () => {
      expect(parts(await out(five, { split: { every: 2 } }, 'zip'))).toEqual([
        { name: 'part-001.pdf', pages: 2, text: 'Page one Page two' },
        { name: 'part-002.pdf', pages: 2, text: 'Page three Page four' },
        { name: 'part-003.pdf', pages: 1, text: 'Page five' },
      ]);
    });

    it('makes a part per range, in the order given, a range past the end cut at the last page', async () => {
      expect(parts(await out(five, { split: { ranges: '4-9,1-2,3' } }, 'zip'))).toEqual([
        { name: 'part-001.pdf', pages: 2, text: 'Page four Page five' },
        { name: 'part-002.pdf', pages: 2, text: 'Page one Page two' },
        { name: 'part-003.pdf', pages: 1, text: 'Page three' },
      ]);
      const error = await expectFailure(step(five, { split: { ranges: '1,8-9' } }, 'zip'), 'unsupported_or_corrupt_input', dir);
      expect(error.message).toBe('The PDF has 5 pages: part 2 of the split (8-9) starts past its end.');
    });

    it('makes one part per page without split, and keeps the pages of a PDF past 99 pages in order', async () => {
      expect(parts(await out(five, {}, 'zip')).map(({ name, pages }) => `${name}:${pages}`)).toEqual(['part-001.pdf:1', 'part-002.pdf:1', 'part-003.pdf:1', 'part-004.pdf:1', 'part-005.pdf:1']);
      const many = handPdf(dir, 'many', Array.from({ length: 120 }, (_, i) => `Sheet ${i + 1}`));
      const read = parts(await out(many, { split: { every: 10 } }, 'zip'));
      expect(read).toHaveLength(12);
      expect(read[11]).toEqual({ name: 'part-012.pdf', pages: 10, text: Array.from({ length: 10 }, (_, i) => `Sheet ${111 + i}`).join(' ') });
    });

    it('decrypts before it splits', async () => {
      expect(parts(await out(locked, { split: { every: 5 }, decrypt: 'open sesame' }, 'zip'))).toEqual([{ name: 'part-001.pdf', pages: 5, text: 'Page one Page two Page three Page four Page five' }]);
    });

    it('stops parts that grow past the output limit', async () => {
      const error = await expectFailure(step(five, { split: { every: 1 } }, 'zip', { limits: { ...QPDF_DESCRIPTOR.limits, maxOutputBytes: 2_000 } }), 'file_too_large', dir);
      expect(error.message).toMatch(/past 2000 bytes/);
    });
  });

  describe('join', () => {
    it('merges PDFs in order, every page of each', async () => {
      const other = handPdf(dir, 'other', ['Other one', 'Other two']);
      const { files } = await join2([{ path: other, name: 'b.pdf' }, { path: turned, name: 'a.pdf' }]);
      const merged = files[0]!;
      expect(pdfPages(merged)).toBe(7);
      expect(rotations(merged)).toEqual([0, 0, 0, 90, 0, 0, 0]);
      expect(pdfText(merged).replace(/\s+/g, ' ').trim()).toBe('Other one Other two Page one Page two Page three Page four Page five');
    });

    it('refuses more pages in all than the limit', async () => {
      const error = await expectFailure(join2([{ path: five, name: 'a.pdf' }, { path: five, name: 'b.pdf' }], { limits: { ...QPDF_DESCRIPTOR.limits, maxPages: 8 } }), 'file_too_large', dir);
      expect(error.message).toBe('The merged PDF would have more than 8 pages; at most 8 pages are merged.');
    });
  });

  describe('damaged PDFs', () => {
    it('fails a PDF whose page tree loops, whatever is asked, at once', async () => {
      const looping = join(dir, 'looping.pdf');
      writeFileSync(looping, loopingPdf());
      const started = Date.now();
      // A password alone walks no page: the page tree is walked anyway.
      for (const [options, to] of [[{ password: { user: 'x' } }, 'pdf'], [{ rotate: 90 }, 'pdf'], [{ decrypt: 'x' }, 'pdf'], [{}, 'zip']] as const) {
        const error = await expectFailure(step(looping, options, to), 'unsupported_or_corrupt_input', dir);
        expect(error.message, JSON.stringify(options)).toBe('The PDF is damaged: its page tree loops back on itself.');
      }
      // Without a cross-reference table, its one page a node that holds the root: qpdf rebuilds the table, then finds the loop.
      const bare = join(dir, 'looping-bare.pdf');
      writeFileSync(bare, '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n3 0 obj << /Type /Pages /Parent 2 0 R /Kids [2 0 R] /Count 1 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
      expect((await expectFailure(step(bare, { rotate: 90 }), 'unsupported_or_corrupt_input', dir)).message).toBe('The PDF is damaged: its page tree loops back on itself.');
      const error = await expectFailure(join2([{ path: five, name: 'good.pdf' }, { path: looping, name: 'looping.pdf' }]), 'unsupported_or_corrupt_input', dir);
      expect(error.message).toBe('File 2 (looping.pdf): The PDF is damaged: its page tree loops back on itself.');
      expect(Date.now() - started).toBeLessThan(20_000);
      expect(leftovers(workRoot, dir)).toEqual([]);
    });

    it('refuses a PDF past the page limit before qpdf runs', async () => {
      runs.length = 0;
      const error = await expectFailure(step(five, { rotate: 90 }, 'pdf', { limits: { ...QPDF_DESCRIPTOR.limits, maxPages: 4 } }), 'file_too_large', dir);
      expect(error.message).toBe('The PDF has 5 pages; this engine works on at most 4 pages.');
      expect(runs.map(({ run: sandboxed }) => sandboxed.command)).toEqual(['pdfinfo']);
    });

    it('refuses a file that is no PDF', async () => {
      const text = join(dir, 'text.pdf');
      writeFileSync(text, 'just words');
      await expectFailure(step(text, { rotate: 90 }), 'unsupported_or_corrupt_input', dir);
    });
  });
});

describe('the qpdf options, as the API checks them before payment (validateOptions)', () => {
  const pdfOptions = QPDF_DESCRIPTOR.pairs[0]!.options!;
  const problems = (raw: unknown, allowed = pdfOptions) => {
    const result = validateOptions(raw, allowed);
    return result.ok ? [] : result.problems.map(({ option, message }) => `${option}: ${message}`);
  };

  it('takes a stamp of Latin-1 text up to 200 characters, and refuses longer text, other scripts and unknown keys', () => {
    expect(problems({ stamp: { text: 'Entwurf – für “Müller” €5', position: 'bottom-right', opacity: 0.4, angle: -30, size: 12, pages: '1-3,5' } })).toEqual([]);
    expect(problems({ stamp: { text: 'x'.repeat(1024 * 1024) } })[0]).toMatch(/^stamp: Too big/);
    expect(problems({ stamp: { text: 'x'.repeat(201) } })).toHaveLength(1);
    expect(problems({ stamp: { text: 'Секретно' } })[0]).toMatch(/^stamp: must be text in Latin-1/);
    expect(problems({ stamp: { text: '   ' } })).toHaveLength(1);
    expect(problems({ stamp: { text: 'ok', colour: 'red' } })).toHaveLength(1);
    expect(problems({ stamp: { text: 'ok', opacity: 0 } })).toHaveLength(1);
    expect(problems({ stamp: { text: 'ok', pages: 'all' } })).toHaveLength(1);
  });

  it('marks the passwords secret (forgotten when the job ends, never logged), and describes each option', () => {
    expect(SECRET_OPTION_NAMES).toEqual(expect.arrayContaining(['password', 'decrypt']));
    expect(SECRET_OPTION_NAMES).not.toContain('stamp');
    expect(describeAllowed('decrypt')).toBe('a string of at most 128 characters');
    expect(describeAllowed('password')).toBe('an object with user, owner');
    expect(describeAllowed('rotate_pages')).toBe('pages such as "1-3,5"');
    expect(describeAllowed('split')).toBe('an object with every, ranges');
  });

  it('takes passwords of 1 to 128 characters, and no other key', () => {
    expect(problems({ password: { user: 'u', owner: 'o' }, decrypt: 'd' })).toEqual([]);
    expect(problems({ password: { user: '' } })).toHaveLength(1);
    expect(problems({ password: { user: 'u', restrict: 'print' } })).toHaveLength(1);
    expect(problems({ decrypt: 'x'.repeat(129) })).toHaveLength(1);
    // A refusal never repeats the value.
    expect(problems({ decrypt: 'y'.repeat(129) }).join(' ')).not.toContain('yyyy');
  });

  it('takes a split of every n pages or of ranges, exactly one of the two', () => {
    const zip = QPDF_DESCRIPTOR.pairs[1]!.options!;
    expect(problems({ split: { every: 3 } }, zip)).toEqual([]);
    expect(problems({ split: { ranges: '1-3,4-7,9' } }, zip)).toEqual([]);
    expect(problems({ split: { every: 3, ranges: '1-2' } }, zip)[0]).toMatch(/^split: give either every/);
    expect(problems({ split: {} }, zip)[0]).toMatch(/^split: give either every/);
    expect(problems({ split: { ranges: '7-4' } }, zip)[0]).toMatch(/run forward/);
    expect(problems({ split: { every: 0 } }, zip)).toHaveLength(1);
    expect(problems({ split: { ranges: Array.from({ length: 101 }, (_, i) => i + 1).join(',') } }, zip)[0]).toMatch(/at most 100 ranges/);
  });

  it('chooses qpdf for pdf → pdf only when a qpdf option is asked; Ghostscript stays the default', () => {
    const graph = new ConversionGraph(ENGINE_DESCRIPTORS);
    const plans = graph.plans('pdf', 'pdf');
    const first = (asked: string[]) => plansTaking(plans, asked)[0]?.steps.map((s) => s.engine).join(' ');
    expect(first([])).toBe('ghostscript');
    expect(first(['compress'])).toBe('ghostscript');
    for (const option of ['rotate', 'password', 'decrypt', 'flatten', 'stamp']) expect(first([option]), option).toBe('qpdf');
    expect(first(['rotate', 'rotate_pages', 'password', 'stamp'])).toBe('qpdf');
    // rotate_pages alone chooses nothing: the API refuses it before payment.
    expect(plansTaking(plans, ['rotate_pages'])).toEqual([]);
    expect(plansTaking(plans, ['rotate', 'compress'])).toEqual([]);
    expect(graph.plans('pdf', 'zip').map((plan) => plan.steps.map((s) => s.engine).join(' '))).toEqual(['qpdf']);
    // A split is of a PDF the caller has, never a step after another engine.
    expect(graph.plans('docx', 'zip')).toEqual([]);
  });
});
