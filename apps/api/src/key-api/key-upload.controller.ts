import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { KeyApiErrors, KeyApiJsonResponse } from '../http-kit/api-docs.decorators.js';
import { schemaRef } from '../http-kit/api-schema-registry.js';
import { CONFIGURED } from '../http-kit/configured-figures.js';
import { UploadReader } from '../http-kit/upload-reader.js';
import { KeyApiAccess } from './key-api-access.decorator.js';
import { Caller, type KeyApiCaller } from './key-api-caller.js';
import { KeyApiUploads } from './key-api-uploads.js';
import { KeyApiUploadRequestSchema, KeyApiUploadResponseSchema } from './key-api.schemas.js';

@KeyApiAccess()
@Controller('api/v1')
export class KeyUploadController {
  constructor(
    private readonly reader: UploadReader,
    private readonly uploads: KeyApiUploads,
  ) {}

  @Post('upload')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'keyUpload',
    summary: 'Upload a file; answers the server-side Filename to convert it with.',
    description: `Streams the multipart part "file" to storage. Size limit: the key's (${CONFIGURED.keyMaxUpload} by default; ${CONFIGURED.anonymousMaxUpload} without a key). The upload expires after 24 hours.`,
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: schemaRef(KeyApiUploadRequestSchema) as never, required: true })
  @KeyApiJsonResponse(200, KeyApiUploadResponseSchema, 'Stored.')
  @KeyApiErrors(400, 401, 413, 415, 429, 500)
  async upload(@Req() request: FastifyRequest, @Caller() caller: KeyApiCaller): Promise<{ Status: 'OK'; Filename: string }> {
    const slot = this.uploads.newSlot();
    const upload = await this.reader.read(request, { storageKey: slot.storageKey, maxBytes: caller.limits.maxUploadBytes });
    const kept = await this.uploads.keep(slot, upload, caller.apiKeyId);
    return { Status: 'OK', Filename: kept.filename };
  }
}
