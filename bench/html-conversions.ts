/**
 * HTML → PDF through Chromium, against LibreOffice's HTML import on the same page, measured in one run (this machine
 * is noisy: the two sides alternate round by round and see the same noise).
 *  - a 5-page HTML (headings, paragraphs, a table) through each engine: p50 of each, and the ratio;
 *  - a 20-page HTML through Chromium: p50;
 *  - the browser's start, and the first page after `start()` (the warm pool: it must not wait for a start);
 *  - the memory of the warm browser (PSS of every Chromium process of its sandbox).
 *   npm run bench:html   (builds the converters; needs chromium, LibreOffice, poppler, bubblewrap)
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngineRuntimes, type EngineRuntime } from '@fileshift/converters/worker';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const dir = mkdtempSync(join(tmpdir(), 'fileshift-bench-html-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

/** An article of `sections` sections, each about a page: a heading, paragraphs, a small table. */
function article(sections: number): string {
  const paragraph = (n: number) => `<p>${'Paragraph ' + n + ' of the report, with enough words to fill a line or two of text on the printed page. '.repeat(4)}</p>`;
  const section = (n: number) =>
    `<h2>Section ${n}</h2>${Array.from({ length: 5 }, (_, i) => paragraph(i + 1)).join('')}` +
    `<table border="1"><tr><th>region</th><th>sales</th></tr>${Array.from({ length: 6 }, (_, i) => `<tr><td>region ${i}</td><td>${i * 7}</td></tr>`).join('')}</table>`;
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>report</title><style>body { font-family: serif; } h2 { page-break-before: always; }</style></head><body><h1>Report</h1>${Array.from({ length: sections }, (_, i) => section(i + 1)).join('')}</body></html>`;
}
const five = join(dir, 'five.html');
writeFileSync(five, article(5));
const twenty = join(dir, 'twenty.html');
writeFileSync(twenty, article(20));

const runtimes = new Map((await createEngineRuntimes({ workRoot: dir, libreoffice: { size: 1 }, chromium: { size: 1 } })).map((runtime) => [runtime.descriptor.id, runtime]));
const chromium = runtimes.get('chromium')!;
const libreoffice = runtimes.get('libreoffice')!;

let jobs = 0;
async function convert(runtime: EngineRuntime, input: string): Promise<{ ms: number; pages: number }> {
  const scratch = join(dir, `job-${++jobs}`);
  mkdirSync(join(scratch, 'out'), { recursive: true });
  copyFileSync(input, join(scratch, 'input'));
  const started = performance.now();
  const { files } = await runtime.convert(
    { inputPath: join(scratch, 'input'), outputDir: join(scratch, 'out'), from: 'html', to: 'pdf', options: {} },
    { signal: new AbortController().signal, limits: runtime.descriptor.limits, workDir: scratch },
  );
  const ms = performance.now() - started;
  const pages = Number(/^Pages:\s+(\d+)/m.exec(execFileSync('pdfinfo', [files[0]!], { encoding: 'utf8' }))?.[1]);
  rmSync(scratch, { recursive: true, force: true });
  return { ms, pages };
}

const p50 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (value: number) => `${value.toFixed(0)} ms`;

/**
 * Memory of every Chromium process whose profile is under the bench's directory: the sum of their proportional set
 * sizes (PSS: a page shared by n processes counts 1/n in each; RSS would count the shared libraries n times).
 */
function browserPssMb(): { mb: number; processes: number } {
  let kb = 0;
  let processes = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      // Chromium rewrites its helpers' command lines as one string: read it as text.
      const commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!commandLine.startsWith('/usr/lib/chromium/chromium') || !commandLine.includes(`--user-data-dir=${dir}/`)) continue;
      kb += Number(/^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
      processes++;
    } catch {
      // ended while we looked
    }
  }
  return { mb: kb / 1024, processes };
}

const startedAt = performance.now();
await chromium.start!();
const browserStart = performance.now() - startedAt;
await libreoffice.start!();
const first = await convert(chromium, five);

const sides = { chromium: [] as number[], libreoffice: [] as number[] };
const pages = { chromium: 0, libreoffice: 0 };
for (let round = 0; round < ROUNDS; round++) {
  for (const [side, runtime] of [['chromium', chromium], ['libreoffice', libreoffice]] as const) {
    const result = await convert(runtime, five);
    sides[side].push(result.ms);
    pages[side] = result.pages;
  }
}
const long: number[] = [];
let longPages = 0;
for (let round = 0; round < Math.max(5, ROUNDS / 2); round++) {
  const result = await convert(chromium, twenty);
  long.push(result.ms);
  longPages = result.pages;
}
const pss = browserPssMb();

console.log(`HTML → PDF, ${ROUNDS} interleaved rounds (sandboxed engines)`);
console.log(`  5-section HTML through Chromium:      p50 ${ms(p50(sides.chromium))} (${pages.chromium} pages)`);
console.log(`  the same through LibreOffice:         p50 ${ms(p50(sides.libreoffice))} (${pages.libreoffice} pages)`);
console.log(`  Chromium's time as a share of LibreOffice's: ${((p50(sides.chromium) / p50(sides.libreoffice)) * 100).toFixed(0)} %`);
console.log(`  20-section HTML through Chromium:     p50 ${ms(p50(long))} (${longPages} pages)`);
console.log(`  browser start: ${ms(browserStart)}; first page after start(): ${ms(first.ms)} (p50 of the rest: ${ms(p50(sides.chromium))})`);
console.log(`  warm browser: ${pss.mb.toFixed(0)} MB (proportional set size) in ${pss.processes} processes`);

await Promise.all([...runtimes.values()].map((runtime) => runtime.stop?.()));
