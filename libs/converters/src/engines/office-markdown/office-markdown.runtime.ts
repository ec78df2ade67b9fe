import { readFile, stat, writeFile } from 'node:fs/promises';
import { ConversionError } from '../../platform/conversion-error.js';
import { OFFICE_MARKDOWN_DESCRIPTOR } from './office-markdown.descriptor.js';
import { type EngineAvailability, type EngineRuntime, singleOutput, type StepContext, type StepOutcome, type StepRequest } from '../../platform/engine-runtime.js';
import { slidesToMarkdown } from './slides-markdown.js';
import { PackageError, packageFailure, readZipEntries } from '../../shared/zip-entries.js';

/** The parts a presentation's text is in: the presentation, its slides and notes, and their relationships. */
const PRESENTATION_PARTS = /^ppt\/(presentation\.xml|_rels\/presentation\.xml\.rels|slides\/slide\d+\.xml|slides\/_rels\/slide\d+\.xml\.rels|notesSlides\/notesSlide\d+\.xml)$/;

/** pptx → Markdown, read by our own code (in process): no engine process, nothing run from the document. */
export class OfficeMarkdownRuntime implements EngineRuntime {
  readonly descriptor = OFFICE_MARKDOWN_DESCRIPTOR;

  async probe(): Promise<EngineAvailability> {
    return { available: true, version: 'in process' };
  }

  async convert(request: StepRequest, context: StepContext): Promise<StepOutcome> {
    if (request.from !== 'pptx' || request.to !== 'md') throw new ConversionError('unsupported_output_format', `This engine does not convert ${request.from} to ${request.to}.`);
    context.signal.throwIfAborted();
    const { limits } = context;
    const size = (await stat(request.inputPath)).size;
    if (limits.maxInputBytes !== undefined && size > limits.maxInputBytes) throw new ConversionError('file_too_large', `Presentations are read up to ${limits.maxInputBytes} bytes; this one has ${size}.`);
    let markdown: string;
    try {
      const parts = readZipEntries(await readFile(request.inputPath), (name) => PRESENTATION_PARTS.test(name), {
        maxEntries: limits.maxEntries ?? 20_000,
        maxInflatedBytes: limits.maxExpandedBytes ?? 512 * 1024 * 1024,
      });
      markdown = slidesToMarkdown(parts);
    } catch (error) {
      if (!(error instanceof PackageError)) throw error;
      throw new ConversionError(packageFailure(error), `The presentation could not be read: ${error.message}.`);
    }
    const outputPath = singleOutput(request.outputDir, 'md');
    await writeFile(outputPath, markdown);
    context.onProgress?.(100);
    return { files: [outputPath] };
  }
}
