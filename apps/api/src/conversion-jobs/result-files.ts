import { suggestFilename } from '@fileshift/detection';
import { getFormat, mimeTypeOf } from '@fileshift/formats';
import type { ConversionJob } from './conversion-job.entity.js';
import { jobBundleKey, jobOutputKey } from './job-storage-keys.js';

/** One file of a job's result a client can download: where it is stored and how it is named. */
export interface ResultFile {
  key: string;
  extension: string;
  filename: string;
  mimeType: string;
}

type ResultJob = Pick<ConversionJob, 'id' | 'originalFilename' | 'targetFormat' | 'resultCount' | 'delivery'>;

/** Pure: the name of a job's result — the original name with the target's extension. */
export function resultName(job: Pick<ConversionJob, 'originalFilename' | 'targetFormat'>): string {
  return suggestFilename(job.originalFilename, getFormat(job.targetFormat)!);
}

/** Pure: the name of the page-th of several result files — the result's name with the page number before its extension. */
export function pageFileName(name: string, page: number): string {
  return name.replace(/(\.[^.]*)?$/, (extension) => `-${String(page).padStart(3, '0')}${extension}`);
}

/**
 * Pure: what a done job delivers. One file as it is; several (a page each) as the job's delivery says — one ZIP of
 * them (`<name>.zip`, holding `<name>-001.png`, `<name>-002.png`, …) or each on its own, in page order.
 */
export function resultFiles(job: ResultJob): ResultFile[] {
  const count = job.resultCount ?? 1;
  if (count === 1) return [{ key: jobOutputKey(job.id, job.targetFormat), extension: job.targetFormat, filename: resultName(job), mimeType: mimeTypeOf(job.targetFormat) }];
  if (job.delivery === 'bundle') {
    return [{ key: jobBundleKey(job.id), extension: 'zip', filename: suggestFilename(job.originalFilename, getFormat('zip')!), mimeType: mimeTypeOf('zip') }];
  }
  return Array.from({ length: count }, (_, index) => ({
    key: jobOutputKey(job.id, job.targetFormat, index + 1),
    extension: job.targetFormat,
    filename: pageFileName(resultName(job), index + 1),
    mimeType: mimeTypeOf(job.targetFormat),
  }));
}
