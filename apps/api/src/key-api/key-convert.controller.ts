import { Body, Controller, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import { publicBaseUrl } from '../http-kit/public-base-url.js';
import { ApiJsonBody, KeyApiError, KeyApiErrors, KeyApiJsonResponse } from '../http-kit/api-docs.decorators.js';
import { CONFIGURED } from '../http-kit/configured-figures.js';
import { ZodValidationPipe } from '../http-kit/zod-validation.pipe.js';
import { KeyApiAccess } from './key-api-access.decorator.js';
import { Caller, type KeyApiCaller } from './key-api-caller.js';
import { KeyApiConversions } from './key-api-conversions.js';
import { type KeyApiConvertRequest, KeyApiConvertRequestSchema, type KeyApiConvertResponse, KeyApiConvertResponseSchema } from './key-api.schemas.js';
import { clientGoneSignal } from '../http-kit/client-gone.js';

@KeyApiAccess()
@Controller('api/v1')
export class KeyConvertController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly conversions: KeyApiConversions,
  ) {}

  @Post('convert')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'keyConvert',
    summary: `Convert an uploaded file and wait for it (up to ${CONFIGURED.convertWaitSeconds} s, KEY_API_CONVERT_WAIT_SECONDS).`,
    description:
      'Runs on the shared queue and workers. Optional options (dpi, pages, pdfa, quality…) are checked against the conversion (400 ' +
      'naming the allowed ones). A conversion writing one file per page (pdf → png) answers one URL per page, in page order. ' +
      'The same filename, ext_out and options again returns the same result (or waits for the same ' +
      'running conversion after a 504). When the bytes show another format than ext_in, the conversion starts from what the bytes are ' +
      'if that format converts to ext_out, and fails with 400 otherwise. Errors: 404 unknown or expired filename, 400 unknown ' +
      'extension, invalid field or unsupported pair, 422 conversion failed, 504 not finished in time. With webhook_url the service also POSTs a ' +
      'signed event there when the job ends (docs/webhooks.md): the notification of a conversion that outlasts the wait.',
  })
  @ApiJsonBody(KeyApiConvertRequestSchema)
  @KeyApiJsonResponse(200, KeyApiConvertResponseSchema, 'Converted; download the URL (no key needed, valid 24 hours).')
  @KeyApiErrors(400, 401, 429, 500)
  @KeyApiError(404, 'No uploaded file of this caller has that filename (unknown, another key\'s, or expired after 24 hours).')
  @KeyApiError(422, 'The conversion failed; Message names the failure type (e.g. unsupported_or_corrupt_input) and the reason.')
  @KeyApiError(504, 'The conversion did not finish within the wait; it goes on, and the same request again waits for the same job.')
  async convert(
    @Body(new ZodValidationPipe(KeyApiConvertRequestSchema)) body: KeyApiConvertRequest,
    @Caller() caller: KeyApiCaller,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<KeyApiConvertResponse> {
    const { job, record } = await this.conversions.convert(caller, body, clientGoneSignal(reply), publicBaseUrl(this.config, request));
    const count = job.resultCount ?? 1;
    // One name per file: <token>.<ext>, or <token>-<n>.<ext> for each of several (pages, in order).
    const names = count > 1 ? Array.from({ length: count }, (_, i) => `${record.downloadToken}-${i + 1}.${body.ext_out}`) : [`${record.downloadToken}.${body.ext_out}`];
    const notes = job.resultManifest?.notes;
    return { Status: 'OK', file: { ext_out: body.ext_out, urls: names.map((name) => `/tmp/${name}`), ...(notes ? { notes } : {}) } };
  }
}
