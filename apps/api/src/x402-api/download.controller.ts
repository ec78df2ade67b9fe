import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ConversionJobs } from '../conversion-jobs/conversion-jobs.service.js';
import { ApiErrors } from '../http-kit/api-docs.decorators.js';
import { DOWNLOAD_NAME, parseDownloadName } from '../http-kit/download-name.js';
import { sendResultFile } from '../http-kit/send-result-file.js';
import { JobError, JobErrorCode } from './job.error.js';
import { ResultPurchases } from './result-purchases.repository.js';
import { X402Api } from './x402-errors.js';

/** Bought results: an unguessable path, valid one hour, no payment again. */
@ApiTags('x402')
@X402Api()
@Controller('api/x402/v1/download')
export class DownloadController {
  constructor(
    private readonly jobs: ConversionJobs,
    private readonly purchases: ResultPurchases,
  ) {}

  @Get(':file')
  @ApiOperation({ operationId: 'downloadConversionResult', summary: 'Download a bought result (the download_url; free, valid one hour).' })
  @ApiParam({ name: 'file', schema: { type: 'string', pattern: DOWNLOAD_NAME.source } })
  @ApiResponse({ status: 200, description: 'The converted file; a ZIP of the files when the conversion wrote several (one per page).', content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } })
  @ApiErrors(404, 410, 500)
  async download(@Param('file') name: string, @Res() reply: FastifyReply): Promise<void> {
    const asked = parseDownloadName(name);
    const purchase = asked && asked.part === undefined ? await this.purchases.findByDownloadToken(asked.token) : null;
    const job = purchase?.state === 'paid' ? await this.jobs.find(purchase.jobId) : null;
    // The x402 API sells one file of a result (a ZIP when there are several).
    const sold = job ? this.jobs.resultFiles(job)[0] : undefined;
    if (!purchase || !job || !sold || sold.extension !== asked!.extension) throw new JobError(JobErrorCode.DownloadNotFound, 'No such download.');
    if (!purchase.downloadExpiresAt || purchase.downloadExpiresAt.getTime() <= Date.now() || job.expiresAt.getTime() <= Date.now()) {
      throw new JobError(JobErrorCode.DownloadExpired, 'This download URL expired; call the result URL again for a new one (no new payment).');
    }
    const file = await this.jobs.openResult(sold);
    if (!file) throw new JobError(JobErrorCode.ResultMissing, 'The result was deleted.');
    await sendResultFile(reply, file);
  }
}
