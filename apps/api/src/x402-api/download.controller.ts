import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiErrors } from '../http-kit/api-docs.decorators.js';
import { X402Api } from './x402-errors.js';
import { JobError, JobErrorCode } from './job.error.js';
import { bundledResult } from '../conversion-jobs/result-download.js';
import { DOWNLOAD_NAME, ResultFiles } from '../conversion-jobs/result-files.service.js';
import { sendResultFile } from '../http-kit/send-result-file.js';

/** Bought results: an unguessable path, valid one hour, no payment again. */
@ApiTags('x402')
@X402Api()
@Controller('api/x402/v1/download')
export class DownloadController {
  constructor(private readonly results: ResultFiles) {}

  @Get(':file')
  @ApiOperation({ operationId: 'downloadConversionResult', summary: 'Download a bought result (the download_url; free, valid one hour).' })
  @ApiParam({ name: 'file', schema: { type: 'string', pattern: DOWNLOAD_NAME.source } })
  @ApiResponse({ status: 200, description: 'The converted file; a ZIP of the files when the conversion wrote several (one per page).', content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } })
  @ApiErrors(404, 410, 500)
  async download(@Param('file') name: string, @Res() reply: FastifyReply): Promise<void> {
    const found = await this.results.jobOf(name);
    const job = found?.job;
    const download = job ? bundledResult(job) : undefined;
    if (!job || !download || job.origin !== 'x402' || job.resultPurchase !== 'paid' || found.part !== undefined || download.extension !== found.extension) {
      throw new JobError(JobErrorCode.DownloadNotFound, 'No such download.');
    }
    if (!job.downloadExpiresAt || job.downloadExpiresAt.getTime() <= Date.now() || job.expiresAt.getTime() <= Date.now()) {
      throw new JobError(JobErrorCode.DownloadExpired, 'This download URL expired; call the result URL again for a new one (no new payment).');
    }
    const file = await this.results.open(download);
    if (!file) throw new JobError(JobErrorCode.ResultMissing, 'The result was deleted.');
    await sendResultFile(reply, file);
  }
}
