import type { FastifyReply } from 'fastify';
import type { ResultFile } from './result-files.service.js';

/** Streams a converted file with its content type and an attachment name. */
export async function sendResultFile(reply: FastifyReply, file: ResultFile): Promise<void> {
  await reply
    .header('Content-Type', file.mimeType)
    .header('Content-Length', String(file.size))
    .header('Content-Disposition', `attachment; filename="${file.filename.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`)
    .header('Cache-Control', 'private, no-store')
    .header('X-Content-Type-Options', 'nosniff')
    .send(file.stream);
}
