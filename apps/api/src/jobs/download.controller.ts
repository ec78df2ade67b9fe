import { Controller, Get, Inject, Param, Res } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiErrorCode, ApiErrorException } from '../http/api-error.exception.js';
import { ApiErrors } from '../http/api-docs.decorators.js';
import { FILE_STORAGE, type FileStorage } from '../storage/file-storage.js';
import { ConversionJobsRepository } from './conversion-jobs.repository.js';
import { sendResultFile } from './send-result-file.js';

const DOWNLOAD_FILE = /^([A-Za-z0-9_-]{32})\.([a-z0-9]{1,20})$/;

/** Bought results: an unguessable path, valid one hour, no payment again. */
@ApiTags('x402')
@Controller('api/x402/v1/download')
export class DownloadController {
  constructor(
    private readonly jobs: ConversionJobsRepository,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
  ) {}

  @Get(':file')
  @ApiOperation({ operationId: 'downloadConversionResult', summary: 'Download a bought result (the download_url; free, valid one hour).' })
  @ApiParam({ name: 'file', schema: { type: 'string', pattern: DOWNLOAD_FILE.source } })
  @ApiResponse({ status: 200, description: 'The converted file.', content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } })
  @ApiErrors(404, 410, 500)
  async download(@Param('file') file: string, @Res() reply: FastifyReply): Promise<void> {
    const match = DOWNLOAD_FILE.exec(file);
    const job = match ? await this.jobs.findByDownloadToken(match[1]!) : null;
    if (!job || job.origin !== 'x402' || job.targetFormat !== match![2]) throw new ApiErrorException(404, ApiErrorCode.NotFound, 'No such download.');
    if (!job.downloadExpiresAt || job.downloadExpiresAt.getTime() <= Date.now() || job.expiresAt.getTime() <= Date.now()) {
      throw new ApiErrorException(410, ApiErrorCode.Gone, 'This download URL expired; call the result URL again for a new one (no new payment).');
    }
    if (!(await sendResultFile(reply, this.storage, job))) throw new ApiErrorException(410, ApiErrorCode.Gone, 'The result was deleted.');
  }
}
