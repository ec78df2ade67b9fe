import { mimeTypeOf } from '@fileshift/formats';
import type { FastifyReply } from 'fastify';
import type { FileStorage } from '../storage/file-storage.js';
import type { ConversionJob } from './conversion-job.entity.js';
import { jobOutputKey } from './job-storage-keys.js';
import { resultFilename } from './result-purchase.service.js';

/** Streams a job's result with its content type and an attachment name; false when the file is gone. */
export async function sendResultFile(reply: FastifyReply, storage: FileStorage, job: ConversionJob): Promise<boolean> {
  const key = jobOutputKey(job.id, job.targetFormat);
  const size = await storage.size(key);
  if (size === null) return false;
  const filename = resultFilename(job);
  await reply
    .header('Content-Type', mimeTypeOf(job.targetFormat))
    .header('Content-Length', String(size))
    .header('Content-Disposition', `attachment; filename="${filename.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(filename)}`)
    .header('Cache-Control', 'private, no-store')
    .header('X-Content-Type-Options', 'nosniff')
    .send(storage.read(key));
  return true;
}
