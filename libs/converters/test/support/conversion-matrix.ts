import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, expect } from 'vitest';
import { canLose, type ContentLoss } from '@fileshift/formats';
import { ConversionGraph } from '../../src/platform/conversion-graph.js';
import { lossesOfPlan } from '../../src/platform/conversion-plan.js';
import { ENGINE_DESCRIPTORS } from '../../src/engines/engines.js';
import { TYPED_RECORDS } from '../../src/engines/data/data.descriptor.js';
import type { EngineRuntime } from '../../src/platform/engine-runtime.js';
import { createEngineRuntimes, probeEngines } from '../../src/engines/worker-engines.js';
import { runPlan } from '../../src/platform/plan-runner.js';
import { scratchWithInput } from './test-context.js';
import {
  DATA_SAMPLES,
  DATA_TARGETS,
  EBOOK_TARGETS,
  expectEbook,
  expectDocument,
  expectMarkup,
  expectRaster,
  expectRecords,
  ffprobeEntries,
  ghostscriptEps,
  ghostscriptPdf,
  MARKUP_SAMPLES,
  MARKUP_TARGETS,
  RASTER_TARGETS,
  mimeOf,
  samplePicture,
  pdfPages,
  pdfText,
  zipEntries,
  postScript,
  SAMPLE_CELLS,
  SAMPLE_HEADING,
  sampleCsv,
  sampleDocx,
  sampleEpub,
  sampleHtml,
  sampleOdp,
  sampleOds,
  sampleOdt,
  sampleRtf,
  sampleTxt,
  sampleXlsx,
  SUBTITLE_LINE,
  VIDEO_SAMPLE_FORMATS,
  writeEbookSamples,
  writeLegacyOfficeSamples,
  writeAudioSample,
  writeRasterSamples,
  writeVideoSample,
  AUDIO_SAMPLE_FORMATS,
  RASTER_SAMPLE_FORMATS,
  SUBTITLE_SAMPLES,
} from '../../testing/index.js';
import { ARCHIVE_SAMPLE_FORMATS, expectArchive, isArchiveSampleFormat, writeArchiveSamples } from '../../testing/archive-samples.js';
import { alphaOf, decodePixels, greyOnWhite, isOneBit, onWhite, type Pixels, psnr, videoFrame } from '../../testing/pixel-checks.js';
import { type SoundFacts, soundFacts } from '../../testing/sound-checks.js';
import { type Cue, readCues } from '../../testing/subtitle-checks.js';
import { expectTableCells, expectTableRows, ROW_READABLE_FORMATS } from '../../testing/table-checks.js';

/**
 * The conversion matrix: the graph of every engine of this build, which is what a worker with all its
 * engines advertises, converted pair by pair from a real sample of each source format, and every output
 * checked by a decoder that is not our own detector (sharp's metadata, ffprobe, pdfinfo, libmagic, unzip
 * listings, the text itself). A source without a sample or a target without a check fails the test: such
 * a pair may not be advertised.
 *
 * And the content is checked, against what the source holds as another decoder reads it: a picture's size, and
 * its pixels (PSNR of at least 30 dB, 25 where the target is lossy); a sound's length (±5 %), loudness and
 * pitch; a table's rows, cells in order; every subtitle cue's timing and words; an archive's names and bytes.
 * What a pair's catalogue entry says it loses (`lossesOfPlan`) is asserted as said: a one-bit picture is
 * black and white, a picture made opaque is white where the source was transparent, a table made text keeps its
 * cells in reading order.
 *
 * The pairs are proven in shards (test/conversion-matrix.<shard>.spec.ts), files of their own that run side by side:
 * each pair belongs to exactly one shard (matrixShardOf), and each shard makes only the samples and starts only the
 * engines its pairs need.
 */
/** The engine classes of the matrix (media split into sound alone and video), each in this many shards. */
const CLASS_SHARDS = { video: 2, audio: 1, images: 1, documents: 2 } as const;
type MatrixClass = keyof typeof CLASS_SHARDS;
export type MatrixShard = `${MatrixClass}-${number}`;
export const MATRIX_SHARDS: readonly MatrixShard[] = Object.entries(CLASS_SHARDS).flatMap(([klass, parts]) => Array.from({ length: parts }, (_, i): MatrixShard => `${klass as MatrixClass}-${i + 1}`));

export const graph = new ConversionGraph(ENGINE_DESCRIPTORS);

/** The class of a pair: the engine class of its cheapest plan, media split into sound alone and the rest. */
function matrixClassOf(source: string, target: string): MatrixClass {
  const plan = graph.plan(source, target);
  if (!plan) throw new Error(`${source} → ${target} is not advertised`);
  if (plan.engineClass === 'media') return plan.steps.every((step) => step.engine === 'ffmpeg-audio') ? 'audio' : 'video';
  return plan.engineClass;
}

/** The shard that proves a pair: its class, and within the class every n-th pair of the ordered list for n shards. */
export function matrixShardOf(source: string, target: string): MatrixShard {
  const klass = matrixClassOf(source, target);
  const index = advertisedPairs().filter(([s, t]) => matrixClassOf(s, t) === klass).findIndex(([s, t]) => s === source && t === target);
  return `${klass}-${(index % CLASS_SHARDS[klass]) + 1}`;
}

/** Every advertised pair, in order. */
export function advertisedPairs(): Array<[string, string]> {
  return graph.sourceFormats().sort().flatMap((source) => graph.targetsOf(source).sort().map((target): [string, string] => [source, target]));
}

const dir = mkdtempSync(join(tmpdir(), 'fileshift-matrix-'));
const MATRIX_CONCURRENCY = Number(process.env['MATRIX_CONCURRENCY'] ?? Math.max(1, Math.min(2, availableParallelism())));
const poolLog: string[] = [];
let runtimes: EngineRuntime[] = [];
let available = new Map<string, EngineRuntime>();

/** A sample of a format: its path, the words its text holds (none for images and audio), and what else it holds. */
interface Sample {
  path: string;
  marker?: string;
  /** A video: its GIF must move. */
  video?: boolean;
  /** A picture: its pixels as another decoder reads them; a video: its poster frame's. */
  pixels?: Pixels;
  /** Audio or video: its sound as ffmpeg's decoder hears it. */
  sound?: SoundFacts;
  /** A table it holds, row by row. */
  table?: ReadonlyArray<readonly string[]>;
  /** A spreadsheet: its cells have types (the table's second row is the numbers 1 and 2). */
  typedCells?: boolean;
  /** Subtitles: the cues it holds. */
  cues?: Cue[];
  /** A PDF: its pages (split into a ZIP, a part each). */
  pdfPages?: number;
}
const samples = new Map<string, Sample>();
/** Pictures of printed words, one per picture format: what a picture to txt or md (OCR) is proven with. */
const textPictures = new Map<string, Sample>();
const OCR_MARKER = 'Fileshift';
const OCR_TARGETS = new Set(['txt', 'md']);
const sampleFor = (source: string, target: string) => (OCR_TARGETS.has(target) && textPictures.get(source)) || samples.get(source)!;

const IMAGE_FORMATS: Record<string, string> = { jpg: 'jpeg', png: 'png', webp: 'webp', avif: 'heif', tiff: 'tiff', gif: 'gif' };
const AUDIO_CODECS: Record<string, string> = {
  mp3: 'mp3', wav: 'pcm_s16le', ogg: 'vorbis', flac: 'flac', m4a: 'aac', aac: 'aac', opus: 'opus',
  aiff: 'pcm_s16be', wma: 'wmav2', ac3: 'ac3', au: 'pcm_s16be', caf: 'pcm_s16le', wv: 'wavpack',
};
const VIDEO_CODECS: Record<string, string> = { mp4: 'h264', mov: 'h264', mkv: 'h264', webm: 'vp9', avi: 'mpeg4' };
/** How each subtitle format starts, and how its cue timings look. */
const SUBTITLES: Record<string, RegExp> = { srt: /^1\r?\n00:00:01,000 --> 00:00:03,500/, vtt: /^WEBVTT[\s\S]*00:01\.000 --> 00:03\.500/, ass: /^\[Script Info\][\s\S]*Dialogue: 0,0:00:01\.00,0:00:03\.50/ };
const isVideo = new Set(VIDEO_SAMPLE_FORMATS);
/** The table each sample holds, row by row (office-samples.ts, markup-samples.ts, data-samples.ts; the PDF's drawn by Ghostscript here). */
const CELLS = [[SAMPLE_CELLS[0], SAMPLE_CELLS[1]], ['1', '2']];
const RECORDS = [['name', 'value'], [SAMPLE_CELLS[0], '1'], [SAMPLE_CELLS[1], '2']];
const SAMPLE_TABLES: Record<string, ReadonlyArray<readonly string[]>> = {
  docx: CELLS, doc: CELLS, odt: CELLS, html: CELLS, xlsx: CELLS, xls: CELLS, ods: CELLS, epub: CELLS, mobi: CELLS, azw3: CELLS,
  rtf: [CELLS[0]!], txt: [CELLS[0]!], org: RECORDS.slice(0, 2), md: RECORDS, pdf: RECORDS,
  csv: RECORDS, tsv: RECORDS, json: RECORDS, ndjson: RECORDS, yaml: RECORDS, xml: RECORDS,
};
/** Formats whose text the check reads back. */
const TEXT_TARGETS = new Set(['pdf', 'docx', 'odt', 'rtf', 'txt', 'html', 'xlsx', 'ods', 'csv', 'pptx', 'odp']);
const LOSSY_PICTURE: readonly ContentLoss[] = ['lossy-compression', 'palette'];
const isPicture = (target: string) => target in IMAGE_FORMATS || RASTER_TARGETS.has(target) || target === 'heic';

/** The picture kept the source's size and pixels, or lost exactly what the pair's losses say. */
function expectPixels(file: string, target: string, source: Pixels, losses: readonly ContentLoss[]): void {
  const output = decodePixels(file);
  expect([output.width, output.height], `${target}: size`).toEqual([source.width, source.height]);
  if (losses.includes('one-bit')) {
    expect(isOneBit(output), `${target}: one bit per pixel`).toBe(true);
    return;
  }
  const minimum = losses.some((loss) => LOSSY_PICTURE.includes(loss)) ? 25 : 30;
  if (losses.includes('grey-levels')) expect(psnr(greyOnWhite(output), greyOnWhite(source)), `${target}: PSNR of the grey levels`).toBeGreaterThanOrEqual(minimum);
  else expect(psnr(onWhite(output), onWhite(source)), `${target}: PSNR on white`).toBeGreaterThanOrEqual(minimum);
  if (losses.includes('transparency')) expect(alphaOf(output).every((alpha) => alpha === 255), `${target}: opaque`).toBe(true);
  else expect(psnr(alphaOf(output), alphaOf(source)), `${target}: PSNR of the transparency`).toBeGreaterThanOrEqual(minimum);
}

/** The first sound track kept the source's length (±5 %), is not silent, and kept a tone's pitch (±5 %). */
function expectSound(file: string, target: string, source: SoundFacts): void {
  const output = soundFacts(file);
  expect(Math.abs(output.seconds - source.seconds) / source.seconds, `${target}: length ${output.seconds} s of ${source.seconds} s`).toBeLessThanOrEqual(0.05);
  expect(output.loudnessDb, `${target}: loudness`).toBeGreaterThan(-40);
  const isTone = Math.abs(source.toneHz - 440) < 20;
  if (isTone) expect(Math.abs(output.toneHz - source.toneHz) / source.toneHz, `${target}: pitch ${output.toneHz.toFixed(0)} Hz of ${source.toneHz.toFixed(0)} Hz`).toBeLessThanOrEqual(0.05);
}

async function check(target: string, files: string[], source: Sample, losses: readonly ContentLoss[], sameFormat = false): Promise<void> {
  expect(files.length).toBeGreaterThanOrEqual(1);
  // A sound or a video to its own format (trimmed, its metadata removed: ffmpeg's) keeps the source's codecs.
  const sameMedia = sameFormat && (target in AUDIO_CODECS || isVideo.has(target) || target === 'amr');
  for (const file of files) {
    expect(statSync(file).size).toBeGreaterThan(0);
    if (sameMedia) {
      expect(ffprobeEntries(file, 'stream=codec_name')).toEqual(ffprobeEntries(source.path, 'stream=codec_name'));
      expect(Number(ffprobeEntries(file, 'format=duration')[0])).toBeGreaterThan(0.5);
    } else if (target in IMAGE_FORMATS) {
      const meta = await sharp(file, { pages: -1 }).metadata();
      expect(meta.format).toBe(IMAGE_FORMATS[target]);
      expect(meta.width).toBeGreaterThan(0);
      // A GIF of a video moves: the one-second clip at 10 frames a second.
      if (target === 'gif' && source.video) expect(meta.pages).toBeGreaterThanOrEqual(5);
    } else if (target in AUDIO_CODECS) {
      expect(ffprobeEntries(file, 'stream=codec_name')).toEqual([AUDIO_CODECS[target]]);
      expect(Number(ffprobeEntries(file, 'format=duration')[0])).toBeGreaterThan(0.5);
    } else if (target in VIDEO_CODECS) {
      expect(ffprobeEntries(file, 'stream=codec_name', 'v')).toEqual([VIDEO_CODECS[target]]);
      // The sound track comes along.
      expect(ffprobeEntries(file, 'stream=codec_type', 'a')).toEqual(['audio']);
      expect(Number(ffprobeEntries(file, 'format=duration')[0])).toBeGreaterThan(0.5);
    } else if (target in SUBTITLES) {
      const text = readFileSync(file, 'utf8');
      expect(text).toMatch(SUBTITLES[target]!);
      expect(text).toContain(SUBTITLE_LINE);
    } else if (target === 'pdf' && !source.marker) {
      expect(mimeOf(file)).toBe('application/pdf');
      expect(pdfPages(file)).toBeGreaterThanOrEqual(1);
    } else if (RASTER_TARGETS.has(target)) {
      expectRaster(file, target);
    } else if (target === 'heic') {
      // Only a HEIC's metadata is ever rewritten (heic → heic, strip_metadata): libmagic names it, libheif decodes its pixels below.
      expect(mimeOf(file)).toBe('image/heic');
    } else if (DATA_TARGETS.has(target)) {
      const records = expectRecords(file, target, SAMPLE_CELLS[0]);
      const values = records.flatMap(Object.values);
      // A spreadsheet's typed cells made text, as its losses say: its numbers are strings in the records.
      if (losses.includes('cell-types')) expect(values.every((value) => typeof value === 'string'), `${target}: every value text`).toBe(true);
      else if (source.typedCells && TYPED_RECORDS.has(target)) expect(values, `${target}: the sheet's numbers stay numbers`).toEqual(expect.arrayContaining([1, 2]));
    } else if (EBOOK_TARGETS.has(target)) {
      expectEbook(file, target, source.marker ?? '');
    } else if (MARKUP_TARGETS.has(target)) {
      expectMarkup(file, target, source.marker ?? '');
    } else if (TEXT_TARGETS.has(target)) {
      expectDocument(file, target, source.marker ?? '');
    } else if (target === 'zip' && source.pdfPages) {
      // A PDF split into parts (qpdf; a part per page when no split is asked): every page, in order, a PDF each.
      const names = zipEntries(file);
      expect(names).toEqual(Array.from({ length: source.pdfPages }, (_, i) => `part-${String(i + 1).padStart(3, '0')}.pdf`));
      const parts = mkdtempSync(join(dir, 'parts-'));
      execFileSync('unzip', ['-q', file, '-d', parts]);
      for (const name of names) expect(pdfPages(join(parts, name)), name).toBe(1);
      expect(pdfText(join(parts, names[0]!))).toContain(source.marker ?? '');
    } else if (isArchiveSampleFormat(target)) {
      expectArchive(file, target);
    } else {
      throw new Error(`no check for the target ${target}: a pair without a check may not be advertised`);
    }
    if (source.pixels && isPicture(target) && (!source.video || losses.includes('still-frame'))) expectPixels(file, target, source.pixels, losses);
    if (source.sound && (target in AUDIO_CODECS || target in VIDEO_CODECS || sameMedia)) expectSound(file, target, source.sound);
    if (losses.includes('picture')) expect(ffprobeEntries(file, 'stream=codec_type', 'v'), `${target}: no picture`).toEqual([]);
    if (source.cues && target in SUBTITLES) expect(readCues(file, target), `${target}: cues`).toEqual(source.cues);
    if (source.table && ROW_READABLE_FORMATS.has(target)) {
      if (losses.includes('table-layout')) expectTableCells(file, target, source.table);
      else expectTableRows(file, target, source.table);
    }
  }
}

const write = (name: string, content: Buffer | string, marker?: string): Sample => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return { path, marker };
};

/** The OCR picture formats: pictures of printed words, for picture → txt or md. */
const TEXT_PICTURE_FORMATS = ['svg', ...Object.keys(IMAGE_FORMATS), ...RASTER_SAMPLE_FORMATS];
const LEGACY_OFFICE = [
  { from: 'docx', to: 'doc' },
  { from: 'ods', to: 'xls' },
  { from: 'odp', to: 'ppt' },
  { from: 'odp', to: 'pptx' },
] as const;

/**
 * The samples of these source formats, each group written only when a format of it is wanted (a shard makes what its
 * pairs read; the legacy Office samples need LibreOffice, the e-books calibre, the media ffmpeg).
 */
async function writeSamples(wanted: ReadonlySet<string>, wantTextPictures: boolean): Promise<void> {
  const wants = (...formats: readonly string[]) => formats.some((format) => wanted.has(format));
  const { width, height, rgba } = samplePicture();
  const picture = sharp(rgba, { raw: { width, height, channels: 4 } });
  if (wants(...Object.keys(IMAGE_FORMATS))) {
    for (const [format, libvips] of Object.entries(IMAGE_FORMATS)) {
      const path = join(dir, `picture.${format}`);
      // JPEG has no transparency: its sample is the picture on white, as any writer would make it.
      const source = format === 'jpg' ? picture.clone().flatten({ background: '#ffffff' }) : picture.clone();
      await source.toFormat(libvips as 'png', format === 'avif' ? { compression: 'av1' } : {}).toFile(path);
      samples.set(format, { path, pixels: decodePixels(path) });
    }
  }
  if (wants('svg')) samples.set('svg', write('drawing.svg', '<svg xmlns="http://www.w3.org/2000/svg" width="96" height="64"><circle cx="48" cy="32" r="30" fill="#c33"/></svg>'));
  if (wants(...RASTER_SAMPLE_FORMATS)) for (const [format, path] of writeRasterSamples(dir)) samples.set(format, { path, pixels: decodePixels(path) });
  if (wantTextPictures) {
    // The same formats, each holding a word drawn by librsvg (256 wide: an icon's largest size).
    const words = `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="80"><rect width="256" height="80" fill="#fff"/><text x="16" y="54" font-family="DejaVu Sans" font-weight="bold" font-size="36">${OCR_MARKER}</text></svg>`;
    textPictures.set('svg', write('words.svg', words, OCR_MARKER));
    const printed = await sharp(Buffer.from(words)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    for (const [format, libvips] of Object.entries(IMAGE_FORMATS)) {
      const path = join(dir, `words.${format}`);
      await sharp(printed.data, { raw: { width: 256, height: 80, channels: 4 } }).toFormat(libvips as 'png', format === 'avif' ? { compression: 'av1' } : {}).toFile(path);
      textPictures.set(format, { path, marker: OCR_MARKER });
    }
    for (const [format, path] of writeRasterSamples(dir, { width: 256, height: 80, rgba: printed.data }, 'words')) textPictures.set(format, { path, marker: OCR_MARKER });
  }
  // Three seconds: a codec's fixed delay (mp3's 70 ms) stays well inside the ±5 % a length may change. Gradients: a
  // still's pixels are compared with the source's frame, and filmed pictures are smooth.
  for (const format of VIDEO_SAMPLE_FORMATS) if (wanted.has(format)) samples.set(format, { path: writeVideoSample(format, join(dir, `clip.${format}`), { seconds: 3, scene: 'gradients' }), video: true });
  for (const format of AUDIO_SAMPLE_FORMATS) if (wanted.has(format)) samples.set(format, { path: writeAudioSample(format, join(dir, `tone.${format}`), { seconds: 3 }) });
  for (const [format, text] of Object.entries(SUBTITLE_SAMPLES)) if (wanted.has(format)) samples.set(format, write(`captions.${format}`, text));
  if (wants(...ARCHIVE_SAMPLE_FORMATS)) for (const [format, path] of writeArchiveSamples(dir)) samples.set(format, { path });
  samples.set('txt', write('notes.txt', sampleTxt(), SAMPLE_HEADING));
  for (const [format, text] of Object.entries(MARKUP_SAMPLES)) samples.set(format, write(`markup.${format}`, text, SAMPLE_HEADING));
  samples.set('epub', write('book.epub', sampleEpub(), SAMPLE_HEADING));
  if (wants(...EBOOK_TARGETS)) for (const [format, path] of writeEbookSamples(dir, samples.get('epub')!.path)) samples.set(format, { path, marker: SAMPLE_HEADING });
  for (const [format, text] of Object.entries(DATA_SAMPLES)) samples.set(format, write(`records.${format}`, text, SAMPLE_CELLS[0]));
  samples.set('html', write('page.html', sampleHtml(), SAMPLE_HEADING));
  samples.set('rtf', write('letter.rtf', sampleRtf(), SAMPLE_HEADING));
  samples.set('docx', write('report.docx', sampleDocx(), SAMPLE_HEADING));
  samples.set('odt', write('report.odt', sampleOdt(), SAMPLE_HEADING));
  samples.set('csv', write('table.csv', sampleCsv(), SAMPLE_CELLS[0]));
  samples.set('xlsx', write('table.xlsx', sampleXlsx(), SAMPLE_CELLS[0]));
  samples.set('ods', write('table.ods', sampleOds(), SAMPLE_CELLS[0]));
  samples.set('odp', write('slides.odp', sampleOdp(), SAMPLE_HEADING));
  if (wants('eps')) samples.set('eps', { path: ghostscriptEps(dir, 'figure', 'Fileshift EPS figure') });
  if (wants('ps')) samples.set('ps', write('pages.ps', postScript(['Fileshift PostScript page one', 'page two']), 'Fileshift PostScript'));
  if (wants('pdf')) samples.set('pdf', { path: ghostscriptPdf(dir, 'three-pages', ['Fileshift PDF page one', 'page two', 'page three'], SAMPLE_TABLES['pdf']), marker: 'Fileshift PDF', pdfPages: 3 });
  const legacy = LEGACY_OFFICE.filter(({ to }) => wanted.has(to));
  if (legacy.length > 0) {
    await writeLegacyOfficeSamples(dir, legacy.map(({ from, to }) => ({ from: samples.get(from)!.path, to, output: join(dir, `legacy.${to}`) })));
    for (const { from, to } of legacy) samples.set(to, { path: join(dir, `legacy.${to}`), marker: samples.get(from)!.marker });
  }

  // What each sample holds, read by decoders that are not the engines (pictures' pixels are read as they are written).
  for (const [format, sample] of samples) {
    if (!wanted.has(format)) continue;
    // The still a video gives is its frame a tenth of the way in (ffmpeg-video.runtime.ts).
    if (sample.video) sample.pixels = videoFrame(sample.path, Math.min(Number(ffprobeEntries(sample.path, 'format=duration')[0]) / 10, 10));
    if (format in AUDIO_CODECS || isVideo.has(format) || format === 'amr') sample.sound = soundFacts(sample.path);
    if (format in SUBTITLES) sample.cues = readCues(sample.path, format);
    sample.table = SAMPLE_TABLES[format];
    sample.typedCells = canLose(format, 'cell-types');
  }
}

/** The pairs of a shard, in order; MATRIX_PAIRS (a pattern of "source→target") narrows a developer's run, CI never sets it. */
export function shardPairs(shard: MatrixShard): Array<[string, string]> {
  const only = process.env['MATRIX_PAIRS'] ? new RegExp(process.env['MATRIX_PAIRS']) : undefined;
  const [klass, part] = shard.split('-') as [MatrixClass, string];
  return advertisedPairs()
    .filter(([source, target]) => matrixClassOf(source, target) === klass)
    .filter((_, index) => index % CLASS_SHARDS[klass] === Number(part) - 1)
    .filter(([source, target]) => !only || only.test(`${source}→${target}`));
}

/**
 * Sets up a shard's file: its samples, and the engines of every plan its pairs may take (the warm ones started),
 * before its tests; everything stopped and removed after them. `extraSources` are formats other tests of the file read.
 */
export function setUpMatrix(shard: MatrixShard, { extraSources = [] as readonly string[], textPictures: wantTextPictures = false } = {}): void {
  beforeAll(async () => {
    const pairs = shardPairs(shard);
    runtimes = await createEngineRuntimes({ libreoffice: { size: 2, log: (level, message) => poolLog.push(`${level} ${message}`) } });
    const probed = await probeEngines(runtimes);
    available = probed.available;
    for (const missing of probed.missing) {
      console.error(`\n*** ENGINE MISSING: ${missing.id} (${missing.problem}). Install ${missing.debianPackages.join(' ')}; the matrix FAILS without it. ***\n`);
    }
    // Warm engines start when first needed: those of the shard's plans are started now, the others (an extra test's) then.
    const engines = new Set(pairs.flatMap(([source, target]) => graph.plans(source, target).flatMap((plan) => plan.steps.map((step) => step.engine))));
    await Promise.all([...available.values()].filter((runtime) => engines.has(runtime.descriptor.id)).map((runtime) => runtime.start?.()));
    const wanted = new Set([...pairs.map(([source]) => source), ...extraSources]);
    await writeSamples(wanted, wantTextPictures || pairs.some(([source, target]) => OCR_TARGETS.has(target) && TEXT_PICTURE_FORMATS.includes(source)));
  }, 180_000);

  afterAll(async () => {
    await Promise.all(runtimes.map((runtime) => runtime.stop?.()));
    rmSync(dir, { recursive: true, force: true });
  });
}

/** The engines whose probe succeeded in this file, by id. */
export const availableEngines = () => available;

/** Converts `source`'s sample to `target` (by the plans given, else the graph's) and checks the output; the plan taken. */
export async function provePair(source: string, target: string, { plans = graph.plans(source, target), options = {}, name = `${source}-to-${target}`, sample = sampleFor(source, target) } = {}) {
  const workDir = join(dir, 'runs', name);
  const inputPath = scratchWithInput(workDir, sample.path);
  const { plan, files } = await runPlan({ plans, inputPath, workDir, options, signal: new AbortController().signal }, available);
  await check(target, files, sample, lossesOfPlan(plan), source === target);
  return { plan, files };
}

/** Runs a plan on a sample of a source format without checking its output (the tests check what they look for). */
export async function convertSample(source: string, target: string, name: string, path = samples.get(source)!.path) {
  const workDir = join(dir, 'runs', name);
  return runPlan({ plans: graph.plans(source, target), inputPath: scratchWithInput(workDir, path), workDir, options: {}, signal: new AbortController().signal }, available);
}

/** A file written into the matrix's directory, as a sample. */
export const writeSample = write;
export const sampleOf = (format: string) => samples.get(format);
export const textPictureOf = (format: string) => textPictures.get(format);

/** Proves every pair of the shard, as many at once as the machine has cores (two here), and prints its figures. */
export async function proveShard(shard: MatrixShard): Promise<void> {
  const startedAt = performance.now();
  const proven: string[] = [];
  const failures: string[] = [];
  const millis: number[] = [];
  const pairs = shardPairs(shard);
  for (const source of new Set(pairs.map(([s]) => s))) if (!samples.has(source)) failures.push(`${source}: no sample`);
  const prove = async ([source, target]: [string, string]) => {
    const pair = `${source} → ${target}`;
    const started = performance.now();
    try {
      if (!samples.has(source)) return;
      const { plan } = await provePair(source, target);
      proven.push(`${pair} (${plan.steps.map((step) => step.engine).join(' + ')})`);
      millis.push(performance.now() - started);
    } catch (error) {
      failures.push(`${pair}: ${(error as Error).message.split('\n')[0]}`);
    }
  };
  const queue = [...pairs];
  await Promise.all(Array.from({ length: MATRIX_CONCURRENCY }, async () => {
    for (let next = queue.shift(); next; next = queue.shift()) await prove(next);
  }));

  const byEngines = new Map<string, number>();
  for (const line of proven) {
    const engines = /\((.*)\)$/.exec(line)![1]!;
    byEngines.set(engines, (byEngines.get(engines) ?? 0) + 1);
  }
  const p50 = [...millis].sort((a, b) => a - b)[Math.floor(millis.length / 2)] ?? 0;
  process.stdout.write(
    `\nconversion matrix, ${shard}: ${proven.length} pairs proven in ${((performance.now() - startedAt) / 1000).toFixed(1)} s, ${MATRIX_CONCURRENCY} at a time, p50 ${p50.toFixed(0)} ms\n` +
      [...byEngines].sort((a, b) => b[1] - a[1]).map(([engines, count]) => `  ${String(count).padStart(4)}  ${engines}`).join('\n') +
      (failures.length > 0 ? `\nFAILED:\n  ${failures.sort().join('\n  ')}\nLibreOffice pool:\n  ${poolLog.join('\n  ')}` : '') +
      '\n',
  );
  expect(failures).toEqual([]);
  if (process.env['MATRIX_PAIRS']) return;
  expect(proven).toHaveLength(pairs.length);
}
