import { Body, Controller, Headers, HttpCode, Post, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiProduces, ApiResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { KEY_API_RATE_LIMIT_HEADERS, KeyApiError, KeyApiErrors } from '../http-kit/api-docs.decorators.js';
import { KeyApiDetectJsonSchema } from '../detection/detect-file-type.schemas.js';
import { DetectionService } from '../detection/detection.service.js';
import { schemaRef } from '../http-kit/api-schema-registry.js';
import { detectionJson, detectionSentence, prefersJson } from './key-api-detect-answer.js';
import { parseKeyApiDetectBody } from './key-api-detect-body.js';
import { KeyApiAccess } from './key-api-access.decorator.js';
import { KeyApiRequestError, KeyApiRequestErrorCode } from './key-api-request.error.js';

const MAX_BODY_BYTES = 4096;

@KeyApiAccess()
@Controller('api/v1')
export class KeyDetectController {
  constructor(private readonly detection: DetectionService) {}

  @Post('detect_file_type')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'keyDetectFileType',
    summary: 'Detect a file type from ext, size, MIME type, name and first bytes (binary body).',
    description:
      'Body: five segments joined by the single byte 0xFE — ext, size as hexadecimal text (0x optional), ' +
      'guessed MIME type, original filename (UTF-8 or Latin-1), up to 200 raw bytes from the start of the file. ' +
      'Only the first four 0xFE bytes separate; the last segment may contain 0xFE. Answers one plain sentence, ' +
      'or the same facts as JSON when the Accept header prefers application/json.',
  })
  @ApiConsumes('application/octet-stream')
  @ApiBody({ schema: { type: 'string', format: 'binary' } as never })
  @ApiProduces('text/plain', 'application/json')
  @ApiResponse({
    status: 200,
    description: 'The detected type.',
    headers: KEY_API_RATE_LIMIT_HEADERS as never,
    content: {
      'text/plain': { schema: { type: 'string' } },
      'application/json': { schema: schemaRef(KeyApiDetectJsonSchema) as never },
    },
  })
  @KeyApiErrors(400, 401, 415, 429, 500)
  @KeyApiError(413, 'The body is larger than the five segments with at most 200 bytes of file content can be.')
  async detect(@Body() body: unknown, @Headers('accept') accept: string | undefined, @Res({ passthrough: true }) reply: FastifyReply): Promise<unknown> {
    if (!Buffer.isBuffer(body)) throw new KeyApiRequestError(KeyApiRequestErrorCode.NotOctetStream, 'Send the body as application/octet-stream.');
    if (body.length > MAX_BODY_BYTES) throw new KeyApiRequestError(KeyApiRequestErrorCode.BodyTooLarge, `The body may hold at most ${MAX_BODY_BYTES} bytes.`);
    const parsed = parseKeyApiDetectBody(body);
    const report = await this.detection.detect({
      filename: filenameWithExtension(parsed.filename, parsed.ext),
      sizeBytes: parsed.sizeBytes,
      mimeHint: parsed.mimeType || undefined,
      header: parsed.header,
    });
    if (prefersJson(accept)) {
      void reply.type('application/json; charset=utf-8');
      return detectionJson(report);
    }
    void reply.type('text/plain; charset=utf-8');
    return detectionSentence(report);
  }
}

/** The filename segment, completed with the ext segment when the name itself has no extension. */
function filenameWithExtension(filename: string, ext: string): string {
  const name = filename || 'file';
  return ext && !/\.[^./\\]+$/.test(name) ? `${name}.${ext}` : name;
}
