import { createInterface } from 'node:readline';
import { ConversionError } from '../conversion-error.js';
import { DataFormatsRuntime } from '../../engines/data/data.runtime.js';
import type { EngineRuntime } from '../engine-runtime.js';
import { OfficeMarkdownRuntime } from '../../engines/office-markdown/office-markdown.runtime.js';
import { SharpImageRuntime } from '../../engines/sharp/sharp.runtime.js';
import type { NodeHostedEngine, HostReply, HostRequest } from './node-host.protocol.js';
import { imagePages } from '../../engines/img2pdf/image-pages.js';
import { pdfText } from '../../engines/poppler/pdf-text.js';
import { ocrPictures } from '../../engines/ocr/ocr-pictures.js';
import { preparedInput } from './prepared-input.js';

/**
 * The Node host: the program that runs, in an engine sandbox of its own, the engines whose code would otherwise
 * parse uploads inside the worker's own process (sharp's libvips, our data and Office readers). It answers one
 * request at a time, one JSON line each on stdout; whatever an upload does to it (a crash, a heap exhausted) ends
 * this process, never the worker. Bundled with esbuild into dist/node-host/node-host.mjs (sharp stays outside).
 */
const runtimes: Record<NodeHostedEngine, EngineRuntime> = {
  // One libvips thread: the pool runs one host per core.
  sharp: new SharpImageRuntime(1),
  data: new DataFormatsRuntime(),
  'office-markdown': new OfficeMarkdownRuntime(),
};

const reply = (message: HostReply) => process.stdout.write(`${JSON.stringify(message)}\n`);

async function answer(request: HostRequest): Promise<HostReply> {
  const { id, task } = request;
  try {
    if (task.kind === 'probe') {
      const versions: Record<string, string> = {};
      for (const [engine, runtime] of Object.entries(runtimes)) versions[engine] = (await runtime.probe()).version ?? '';
      return { id, ok: true, files: [], versions };
    }
    const [inputPath = ''] = request.inputPaths;
    const outputDir = request.outputDir!;
    const limits = request.limits!;
    if (task.kind === 'pdf-text') return { id, ok: true, files: [await pdfText(task.to, request.inputPaths, task.title, outputDir, limits, task.ocr)] };
    if (task.kind === 'ocr-pages') {
      const { frames, copies } = await ocrPictures(inputPath, outputDir, limits);
      return { id, ok: true, files: copies, frames };
    }
    if (task.kind === 'prepare-input') return { id, ok: true, files: await preparedInput(task.engine, task.from, inputPath, outputDir, limits) };
    if (task.kind === 'image-pages') {
      const { frames, copies } = await imagePages(inputPath, outputDir, limits);
      return { id, ok: true, files: copies, frames };
    }
    const { files } = await runtimes[task.engine].convert(
      { inputPath, outputDir, from: task.from, to: task.to, options: task.options },
      { signal: new AbortController().signal, limits, workDir: outputDir, onProgress: (progress) => reply({ id, progress }) },
    );
    return { id, ok: true, files };
  } catch (error) {
    if (error instanceof ConversionError) return { id, ok: false, failureType: error.failureType, message: error.message, retryable: error.retryable, diagnostics: error.diagnostics };
    return { id, ok: false, failureType: 'unknown', message: 'The conversion failed unexpectedly.', retryable: false, diagnostics: String((error as Error)?.stack ?? error) };
  }
}

for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  reply(await answer(JSON.parse(line) as HostRequest));
}
