import { Controller, Get, Inject, Param, Res } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { formatByExtension } from '@fileshift/formats';
import type { FastifyReply } from 'fastify';
import { ApiErrorCode, ApiErrorException } from '../http/api-error.exception.js';
import { KeyApiError, KeyApiErrors } from '../http/api-docs.decorators.js';
import { ConversionJobsRepository } from '../jobs/conversion-jobs.repository.js';
import { sendResultFile } from '../jobs/send-result-file.js';
import { FILE_STORAGE, type FileStorage } from '../storage/file-storage.js';

/** The only names served: a job's random download token and an extension of its target format. */
const CONVERTED_FILE = /^([A-Za-z0-9_-]{32})\.([a-z0-9]{1,20})$/;

/** Converted files of the key API. The unguessable name is the credential; no key is needed to download. */
@ApiTags('key-api')
@Controller('tmp')
export class KeyApiDownloadController {
  constructor(
    private readonly jobs: ConversionJobsRepository,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
  ) {}

  @Get(':file')
  @ApiOperation({
    operationId: 'keyDownload',
    summary: 'Download a converted file (a URL from /api/v1/convert; valid 24 hours).',
    description: 'No Api-Key: the unguessable file name is the credential. Requests are not counted against any limit.',
  })
  @ApiParam({ name: 'file', schema: { type: 'string', pattern: CONVERTED_FILE.source } })
  @ApiResponse({
    status: 200,
    description: 'The converted file, with its own Content-Type (e.g. image/webp) and Content-Disposition: attachment naming it.',
    content: { '*/*': { schema: { type: 'string', format: 'binary' } } },
  })
  @KeyApiErrors(500)
  @KeyApiError(404, 'No such file: unknown, malformed or expired (converted files are kept 24 hours).')
  async download(@Param('file') file: string, @Res() reply: FastifyReply): Promise<void> {
    const match = CONVERTED_FILE.exec(file);
    const job = match ? await this.jobs.findByDownloadToken(match[1]!) : null;
    const servable =
      job?.origin === 'key_api' &&
      job.status === 'done' &&
      formatByExtension(match![2]!)?.id === job.targetFormat &&
      job.expiresAt.getTime() > Date.now();
    if (!servable || !(await sendResultFile(reply, this.storage, job))) {
      throw new ApiErrorException(404, ApiErrorCode.NotFound, 'No such file; converted files expire after 24 hours.');
    }
  }
}
