import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { formatByExtension } from '@fileshift/formats';
import type { FastifyReply } from 'fastify';
import { KeyApiError, KeyApiErrors } from '../http-kit/api-docs.decorators.js';
import { KeyApi } from './key-api-errors.js';
import { resultPart } from '../conversion-jobs/result-download.js';
import { DOWNLOAD_NAME, ResultFiles } from '../conversion-jobs/result-files.service.js';
import { sendResultFile } from '../http-kit/send-result-file.js';
import { KeyApiRequestError, KeyApiRequestErrorCode } from './key-api-request.error.js';

/** Converted files of the key API. The unguessable name is the credential; no key is needed to download. */
@ApiTags('key-api')
@KeyApi()
@Controller('tmp')
export class KeyApiDownloadController {
  constructor(private readonly results: ResultFiles) {}

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
    const found = await this.results.jobOf(name);
    const job = found?.job;
    const count = job?.resultCount ?? 1;
    // A result of one file is served as <token>.<ext>; one of several files (pages) as <token>-<n>.<ext>.
    const partFits = found?.part === undefined ? count === 1 : found.part <= count && count > 1;
    const servable = job?.origin === 'key_api' && job.status === 'done' && partFits && formatByExtension(found!.extension)?.id === job.targetFormat && job.expiresAt.getTime() > Date.now();
    const file = servable ? await this.results.open(resultPart(job, found!.part)) : null;
    if (!file) throw new KeyApiRequestError(KeyApiRequestErrorCode.FileNotFound, 'No such file; converted files expire after 24 hours.');
    await sendResultFile(reply, file);
  }
}
