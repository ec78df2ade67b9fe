import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConversionGraph } from '../src/platform/conversion-graph.js';
import { ENGINE_DESCRIPTORS } from '../src/engines/engines.js';
import type { EngineRuntime } from '../src/platform/engine-runtime.js';
import { createEngineRuntimes, probeEngines } from '../src/engines/worker-engines.js';
import { runPlan } from '../src/platform/plan-runner.js';
import { scratchWithInput } from './support/test-context.js';
import {
  docxOfParagraphs,
  embeddedFonts,
  hasType3Text,
  type GreyImage,
  parsePgm,
  pdfText,
  renderPdfPage,
  SCRIPT_LINES,
  scriptsDocx,
  scriptsHtml,
  scriptsMarkdown,
  scriptsOdt,
  textLines,
  uncoveredCharacters,
  undrawnReason,
} from '../testing/index.js';

/**
 * Every script is drawn: documents holding a line in each of 12 scripts and a line of emoji, converted through the
 * plans the service advertises, come out with every line drawn in a font that has its glyphs. Checked from pixels
 * (poppler renders the PDF, ffmpeg decodes the PNG) and from the embedded fonts against fontconfig's charsets —
 * text extraction alone would pass a page of boxes.
 */
const dir = mkdtempSync(join(tmpdir(), 'fileshift-scripts-'));
const graph = new ConversionGraph(ENGINE_DESCRIPTORS);
const runtimes = await createEngineRuntimes({ libreoffice: { size: 1 } });
let available = new Map<string, EngineRuntime>();

beforeAll(async () => {
  const probed = await probeEngines(runtimes);
  available = probed.available;
  await Promise.all([...available.values()].map((runtime) => runtime.start?.()));
});

afterAll(async () => {
  await Promise.all(runtimes.map((runtime) => runtime.stop?.()));
  rmSync(dir, { recursive: true, force: true });
});

async function convert(name: string, content: Buffer | string, from: string, to: string): Promise<string[]> {
  const workDir = join(dir, `${name}-${to}`);
  const source = join(dir, `${name}.${from}`);
  writeFileSync(source, content);
  const { files } = await runPlan({ plans: graph.plans(from, to), inputPath: scratchWithInput(workDir, source), workDir, options: {}, signal: new AbortController().signal }, available);
  return files;
}

/** Each script's line is a line of the page, drawn with many glyph shapes; below them at most a page number in the footer. */
function expectEveryLineDrawn(page: GreyImage, label: string): void {
  const lines = textLines(page);
  const footer = lines.slice(SCRIPT_LINES.length);
  expect(lines.length, `${label}: one line per script`).toBeGreaterThanOrEqual(SCRIPT_LINES.length);
  expect(footer.every(({ top }) => top > page.height * 0.85), `${label}: lines ${JSON.stringify(lines)}`).toBe(true);
  const undrawn = SCRIPT_LINES.map(({ script }, index) => [script, undrawnReason(page, lines[index]!)]).filter(([, reason]) => reason);
  expect(undrawn, label).toEqual([]);
}

const SOURCES: Array<[from: string, content: () => Buffer | string]> = [
  ['docx', scriptsDocx],
  ['odt', scriptsOdt],
  ['html', scriptsHtml],
  ['md', scriptsMarkdown],
];

describe('every script is drawn', () => {
  it('the engines for documents are installed here', () => {
    for (const engine of ['libreoffice', 'pandoc', 'poppler']) expect([...available.keys()], engine).toContain(engine);
  });

  it.each(SOURCES)('%s → pdf: every line drawn, in a font embedded that has its glyphs', async (from, content) => {
    const [pdf] = await convert(`scripts-${from}`, content(), from, 'pdf');
    const fonts = embeddedFonts(pdf!);
    const text = pdfText(pdf!).replace(/\s+/g, '');
    const uncovered = SCRIPT_LINES.map(({ script, text: line }) => [script, line, uncoveredCharacters(line, fonts).join('')])
      .filter(([, , missing]) => missing)
      // Drawn from embedded Type 3 outlines (Chromium's way with CFF fonts): no font name to look up; the pixels below
      // show the line drawn, and its text must come back.
      .filter(([, line]) => !(hasType3Text(pdf!) && text.includes(line!.replace(/\s+/g, ''))))
      .map(([script, , missing]) => [script, missing]);
    expect(uncovered, `${from}: embedded ${fonts.join(', ')}`).toEqual([]);
    expectEveryLineDrawn(renderPdfPage(pdf!), `${from} → pdf`);
    // And the text is still there to search and copy.
    for (const { script, text: line } of SCRIPT_LINES.slice(0, 3)) expect(text, script).toContain(line.replace(/\s+/g, ''));
  });

  it('html → png: every line drawn', async () => {
    const [png] = await convert('scripts-html', scriptsHtml(), 'html', 'png');
    const pgm = execFileSync('ffmpeg', ['-v', 'error', '-i', png!, '-f', 'image2pipe', '-pix_fmt', 'gray', '-c:v', 'pgm', '-'], { maxBuffer: 256 * 1024 * 1024 });
    expectEveryLineDrawn(parsePgm(pgm), 'html → png');
  });

  it('a DOCX in Calibri and Cambria is drawn in their metric twins, Carlito and Caladea', async () => {
    const docx = docxOfParagraphs([
      { text: 'Calibri is the default font of Word', font: 'Calibri' },
      { text: 'Cambria is its serif companion', font: 'Cambria' },
    ]);
    const [pdf] = await convert('metric-twins', docx, 'docx', 'pdf');
    expect(embeddedFonts(pdf!)).toEqual(expect.arrayContaining([expect.stringMatching(/^Carlito/), expect.stringMatching(/^Caladea/)]));
  });
});
