import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/** A file to send: its bytes, size and names. */
export interface FileToSend {
  stream: Readable;
  size: number;
  filename: string;
  mimeType: string;
}

/**
 * Streams a converted file with its content type and an attachment name. A result is the caller's content on
 * our origin (an HTML page made from their document): it is never sniffed, and should a browser render it
 * anyway, it renders sandboxed, without scripts or requests.
 */
export async function sendResultFile(reply: FastifyReply, file: FileToSend): Promise<void> {
  await reply
    .header('Content-Type', file.mimeType)
    .header('Content-Length', String(file.size))
    .header('Content-Disposition', `attachment; filename="${file.filename.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`)
    .header('Cache-Control', 'private, no-store')
    .header('X-Content-Type-Options', 'nosniff')
    .header('Content-Security-Policy', "sandbox; default-src 'none'; img-src data:; style-src 'unsafe-inline'")
    .send(file.stream);
}
