import { type FileHandle, open, rm } from 'node:fs/promises';
import { ConversionError } from './conversion-error.js';

/** Text chunks gathered in memory and written to one output file in batches, never past the output cap. */
export class CappedTextOutput {
  private pending: string[] = [];
  private written = 0;

  constructor(
    private readonly file: FileHandle,
    private readonly cap: number,
  ) {}

  push(chunk: string): void {
    this.pending.push(chunk);
  }

  /** Chunks gathered since the last flush. */
  get buffered(): number {
    return this.pending.length;
  }

  async flush(): Promise<void> {
    const chunk = this.pending.join('');
    this.pending = [];
    this.written += Buffer.byteLength(chunk);
    if (this.written > this.cap) throw new ConversionError('file_too_large', `The output grew past ${this.cap} bytes.`);
    await this.file.write(chunk);
  }
}

/** Writes `outputPath` through `produce`, held to `cap`; if anything fails, the file is removed. */
export async function writeCappedText(outputPath: string, cap: number, produce: (output: CappedTextOutput) => Promise<void>): Promise<void> {
  const file = await open(outputPath, 'w');
  try {
    const output = new CappedTextOutput(file, cap);
    await produce(output);
    await output.flush();
  } catch (error) {
    await file.close();
    await rm(outputPath, { force: true });
    throw error;
  }
  await file.close();
}
