import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { KeyApiError, KeyApiErrors, KeyApiJsonResponse } from '../http-kit/api-docs.decorators.js';
import { schemaRef } from '../http-kit/api-schema-registry.js';
import { CONFIGURED } from '../http-kit/configured-figures.js';
import { UploadReader } from '../http-kit/upload-reader.js';
import { KeyApiAccess } from './key-api-access.decorator.js';
import { Caller, type KeyApiCaller } from './key-api-caller.js';
import { KeyApiUploads } from './key-api-uploads.js';
import { KeyApiUploadFromUrlSchema, KeyApiUploadRequestSchema, KeyApiUploadResponseSchema } from './key-api.schemas.js';
import { KeyApiUrlUploads } from './key-api-url-uploads.js';

@KeyApiAccess()
@Controller('api/v1')
export class KeyUploadController {
  constructor(
    private readonly reader: UploadReader,
    private readonly uploads: KeyApiUploads,
    private readonly urlUploads: KeyApiUrlUploads,
  ) {}

  @Post('upload')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'keyUpload',
    summary: 'Upload a file; answers the server-side Filename to convert it with.',
    description:
      `Streams the multipart part "file" to storage. Size limit: the key's (${CONFIGURED.keyMaxUpload} by default; ${CONFIGURED.anonymousMaxUpload} without a key). The upload expires after 24 hours. ` +
      'Instead, an application/json body may name the file by source_url (docs/source-urls.md): the service fetches it through its outbound guard, ' +
      'under the same limit; a refused URL or address, an unreachable server, an error status or an empty file is a 400 whose Message says why, ' +
      'a file over the limit a 413.',
    requestBody: {
      required: true,
      content: {
        'multipart/form-data': { schema: schemaRef(KeyApiUploadRequestSchema) },
        'application/json': { schema: schemaRef(KeyApiUploadFromUrlSchema) },
      },
    },
  })
  @KeyApiJsonResponse(200, KeyApiUploadResponseSchema, 'Stored.')
  @KeyApiErrors(400, 401, 413, 415, 429, 500)
  @KeyApiError(503, 'This server already fetches as many source URLs as it may at once; retry after Retry-After.')
  async upload(@Req() request: FastifyRequest, @Caller() caller: KeyApiCaller): Promise<{ Status: 'OK'; Filename: string }> {
    if (!request.isMultipart() && /^application\/json\b/i.test(request.headers['content-type'] ?? '')) {
      const fetched = await this.urlUploads.fetch(request.body, caller.limits.maxUploadBytes, caller.apiKeyId);
      return { Status: 'OK', Filename: fetched.filename };
    }
    const slot = this.uploads.newSlot();
    const upload = await this.reader.read(request, { storageKey: slot.storageKey, maxBytes: caller.limits.maxUploadBytes });
    const kept = await this.uploads.keep(slot, upload, caller.apiKeyId);
    return { Status: 'OK', Filename: kept.filename };
  }
}
