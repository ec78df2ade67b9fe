import { suggestFilename } from '@fileshift/detection';
import { getFormat, mimeTypeOf } from '@fileshift/formats';
import type { ConversionJob } from './conversion-job.entity.js';
import { jobBundleKey, jobOutputKey } from './job-storage-keys.js';

/** One file a client can download of a job's result: where it is stored and how it is named. */
export interface ResultDownload {
  key: string;
  extension: string;
  filename: string;
  mimeType: string;
}

type ResultJob = Pick<ConversionJob, 'id' | 'originalFilename' | 'targetFormat' | 'resultCount'>;

/**
 * Pure: what the x402 API delivers of a result — its one file, or a ZIP of its files when the conversion
 * wrote several (a page each): `<name>.zip`, application/zip, holding `<name>-001.png`, `<name>-002.png`, …
 */
export function bundledResult(job: ResultJob): ResultDownload {
  if ((job.resultCount ?? 1) > 1) {
    return { key: jobBundleKey(job.id), extension: 'zip', filename: suggestFilename(job.originalFilename, getFormat('zip')!), mimeType: mimeTypeOf('zip') };
  }
  return resultPart(job);
}

/** Pure: one file of a result — the only one, or (with `part`) the part-th of several (the key API lists each). */
export function resultPart(job: ResultJob, part?: number): ResultDownload {
  const filename = suggestFilename(job.originalFilename, getFormat(job.targetFormat)!);
  const named = part === undefined ? filename : filename.replace(/(\.[^.]*)?$/, (extension) => `-${String(part).padStart(3, '0')}${extension}`);
  return { key: jobOutputKey(job.id, job.targetFormat, part), extension: job.targetFormat, filename: named, mimeType: mimeTypeOf(job.targetFormat) };
}

/** The key API's /tmp/ names of a result: one per file. */
export function keyApiResultNames(job: Pick<ConversionJob, 'downloadToken' | 'resultCount'>, extension: string): string[] {
  const count = job.resultCount ?? 1;
  return count > 1 ? Array.from({ length: count }, (_, i) => `${job.downloadToken}-${i + 1}.${extension}`) : [`${job.downloadToken}.${extension}`];
}
