import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { formatByExtension } from '@fileshift/formats';
import type { FastifyReply } from 'fastify';
import { ConversionJobs } from '../conversion-jobs/conversion-jobs.service.js';
import { KeyApiError, KeyApiErrors } from '../http-kit/api-docs.decorators.js';
import { DOWNLOAD_NAME, parseDownloadName } from '../http-kit/download-name.js';
import { sendResultFile } from '../http-kit/send-result-file.js';
import { KeyApiConversionRecords } from './key-api-conversion-records.js';
import { KeyApi } from './key-api-errors.js';
import { KeyApiRequestError, KeyApiRequestErrorCode } from './key-api-request.error.js';

/** Converted files of the key API. The unguessable name is the credential; no key is needed to download. */
@ApiTags('key-api')
@KeyApi()
@Controller('tmp')
export class KeyApiDownloadController {
  constructor(
    private readonly jobs: ConversionJobs,
    private readonly records: KeyApiConversionRecords,
  ) {}

  @Get(':file')
  @ApiOperation({
    operationId: 'keyDownload',
    summary: 'Download a converted file (a URL from /api/v1/convert, one per page when the conversion wrote several; valid 24 hours).',
    description: 'No Api-Key: the unguessable file name is the credential. Requests are not counted against any limit.',
  })
  @ApiParam({ name: 'file', schema: { type: 'string', pattern: DOWNLOAD_NAME.source } })
  @ApiResponse({
    status: 200,
    description: 'The converted file, with its own Content-Type (e.g. image/webp) and Content-Disposition: attachment naming it.',
    content: { '*/*': { schema: { type: 'string', format: 'binary' } } },
  })
  @KeyApiErrors(500)
  @KeyApiError(404, 'No such file: unknown, malformed or expired (converted files are kept 24 hours).')
  async download(@Param('file') name: string, @Res() reply: FastifyReply): Promise<void> {
    const asked = parseDownloadName(name);
    const record = asked ? await this.records.findByDownloadToken(asked.token) : null;
    const job = record ? await this.jobs.find(record.jobId) : null;
    const files = job?.status === 'done' && job.expiresAt.getTime() > Date.now() ? this.jobs.resultFiles(job) : [];
    // A result of one file is served as <token>.<ext>; one of several files (pages) as <token>-<n>.<ext>.
    const wanted = asked?.part === undefined ? (files.length === 1 ? files[0] : undefined) : files.length > 1 ? files[asked.part - 1] : undefined;
    const servable = wanted && formatByExtension(asked!.extension)?.id === job!.targetFormat;
    const file = servable ? await this.jobs.openResult(wanted) : null;
    if (!file) throw new KeyApiRequestError(KeyApiRequestErrorCode.FileNotFound, 'No such file; converted files expire after 24 hours.');
    await sendResultFile(reply, file);
  }
}
