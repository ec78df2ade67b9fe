import { Controller, Delete, Get, Headers, HttpCode, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiParam, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Paid, Payment, type RoutePayment } from '@fileshift/x402-nest';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import { publicBaseUrl } from '../http-kit/public-base-url.js';
import { ApiErrors, ApiJsonResponse, POLL_HEADERS } from '../http-kit/api-docs.decorators.js';
import { schemaRef } from '../http-kit/api-schema-registry.js';
import { CONFIGURED } from '../http-kit/configured-figures.js';
import { X402Api } from './x402-errors.js';
import type { ConversionJob } from '../conversion-jobs/conversion-job.entity.js';
import { ConversionJobs } from '../conversion-jobs/conversion-jobs.service.js';
import {
  type ConversionJobAccepted,
  ConversionJobAcceptedSchema,
  CreateConversionJobFromUrlSchema,
  CreateConversionJobRequestSchema,
  DeleteJobResponseSchema,
} from './convert-file.schemas.js';
import { JOB_ID_PATTERN } from '../conversion-jobs/job-id.js';
import { MAX_JOIN_FILES } from '../config/upload-limit.js';
import { JobLookup } from './job-lookup.service.js';
import { type JobStatusBody, JobStatusSchema } from './job-status.schemas.js';
import { jobStatusView, retryAfterSeconds } from './job-status-view.js';
import { CREATE_JOB_OPERATION, PAID_ROUTES, PURCHASE_RESULT_OPERATION } from '../payments/paid-operations.js';
import { ResultPurchaseService } from './result-purchase.service.js';
import { type PurchasedConversionResult, PurchasedConversionResultSchema } from './result.schemas.js';
import { type Upload, UploadReader } from '../http-kit/upload-reader.js';
import { PaidConversions } from './paid-conversions.js';
import { PaidUrlConversions } from './paid-url-conversions.js';
import { MAX_STATUS_WAIT_SECONDS, statusWait } from './status-wait.js';
import { clientGoneSignal } from '../http-kit/client-gone.js';
import { RateLimitError, RateLimitErrorCode } from '../rate-limit/rate-limit.error.js';

@ApiTags('x402')
@X402Api()
@Controller('api/x402/v1/convert-file')
export class ConvertFileController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly jobs: ConversionJobs,
    private readonly conversions: PaidConversions,
    private readonly urlConversions: PaidUrlConversions,
    private readonly uploads: UploadReader,
    private readonly lookup: JobLookup,
    private readonly results: ResultPurchaseService,
  ) {}

  @Post()
  @HttpCode(202)
  @Paid(PAID_ROUTES[CREATE_JOB_OPERATION])
  @ApiOperation({
    operationId: CREATE_JOB_OPERATION,
    summary: 'Start a conversion job (paid: job creation fee, non-refundable).',
    description:
      'The upload is validated (size, size_bytes, target_format, and the evidence rule: the first bytes must show a format an engine here reads, ' +
      'with a conversion path to the target) before the payment challenge: a request that cannot succeed is refused with 422 and never charged. ' +
      'A target_format that is unknown, or that the file cannot be converted to, is refused with error.details.valid_targets: the target ids of the ' +
      'format the bytes show (error.details.source_format), or every target id when they show none; aliases such as jpeg or tif are accepted. ' +
      'With the same Idempotency-Key and the same parameters the existing job is returned and no fee is charged again; without an ' +
      'Idempotency-Key, the identifier of the payment (x402 payment-identifier, per payer) plays its part. ' +
      'Instead of the upload, an application/json body may name the file by source_url (same price; docs/source-urls.md): the fields and the URL ' +
      'are checked before the challenge; with the payment verified the file is fetched into the job, and the evidence rule decides before anything ' +
      'is settled. An unreachable URL, a refused address or redirect, an empty, oversized or unreadable file answers its 4xx ' +
      '(source_url_refused, source_url_failed, 413, 422) and settles nothing. When this server already fetches as many URLs as it may, the answer ' +
      'is 503 source_url_busy with Retry-After, before any payment.',
    requestBody: {
      required: true,
      content: {
        'multipart/form-data': { schema: schemaRef(CreateConversionJobRequestSchema) },
        'application/json': { schema: schemaRef(CreateConversionJobFromUrlSchema) },
      },
    },
  })
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: '8..128 printable characters; prevents duplicate jobs and fees on retry.' })
  @ApiJsonResponse(202, ConversionJobAcceptedSchema, 'Job accepted; poll status_url. Retry-After suggests when.', POLL_HEADERS)
  @ApiErrors(400, 409, 413, 415, 422, 429, 500, 503)
  async create(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Payment() payment: RoutePayment,
  ): Promise<ConversionJobAccepted> {
    if (!request.isMultipart() && isJson(request)) {
      const started = await this.urlConversions.start(request.body, idempotencyKey, payment, publicBaseUrl(this.config, request));
      return this.accepted(started.job, request, reply, started.created ? undefined : 'Existing job for this Idempotency-Key or payment identifier; no new fee was charged.');
    }
    // The upload goes straight into a new job's input slot; unless a new job takes it, it is removed.
    const slot = this.jobs.inputSlot();
    let upload: Upload | undefined;
    let created = false;
    try {
      upload = await this.uploads.read(request, { storageKey: slot.memberKey, maxFiles: MAX_JOIN_FILES });
      const started = await this.conversions.start(slot, upload, idempotencyKey, payment, publicBaseUrl(this.config, request));
      created = started.created;
      return this.accepted(started.job, request, reply, created ? undefined : 'Existing job for this Idempotency-Key or payment identifier; no new fee was charged.');
    } finally {
      if (upload && !created) await this.uploads.discard(upload);
    }
  }

  @Get(':job_id/status')
  @ApiOperation({
    operationId: 'getConversionJobStatus',
    summary: 'Job status (free; the job id is the access key). With wait, answers as soon as the job ends.',
    description:
      `With ?wait=N (or the header Prefer: wait=N, RFC 7240) the answer comes as soon as the job ends, or after N seconds (at most ${MAX_STATUS_WAIT_SECONDS}) ` +
      'with the usual processing shape: a client long-polls instead of sleeping between polls. Without it the status answers at once, and ' +
      'retry_after_seconds and Retry-After say when to ask again. Each API process lets a bounded number of requests wait at once; past it a ' +
      'status with a wait answers 429 with Retry-After (poll then, or without wait).',
  })
  @ApiParam({ name: 'job_id', schema: { type: 'string', pattern: JOB_ID_PATTERN.source } })
  @ApiQuery({ name: 'wait', required: false, schema: { type: 'integer', minimum: 0, maximum: MAX_STATUS_WAIT_SECONDS }, description: 'Seconds to wait for the job to end before answering; 0 answers at once.' })
  @ApiHeader({ name: 'Prefer', required: false, description: `wait=N (RFC 7240): as ?wait=N; more than ${MAX_STATUS_WAIT_SECONDS} is taken as ${MAX_STATUS_WAIT_SECONDS}, and the answer says Preference-Applied.` })
  @ApiResponse({
    status: 200,
    description: 'Processing, done or failed.',
    content: { 'application/json': { schema: schemaRef(JobStatusSchema) as never } },
    headers: { ...POLL_HEADERS, 'Preference-Applied': { description: 'wait=N, the wait applied, when the request said Prefer: wait.', schema: { type: 'string' } } } as never,
  })
  @ApiErrors(400, 404, 410, 429, 500)
  async status(
    @Param('job_id') jobId: string,
    @Query('wait') wait: string | undefined,
    @Headers('prefer') prefer: string | undefined,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<JobStatusBody> {
    const asked = statusWait(wait, prefer);
    let job = await this.lookup.live(jobId);
    if (asked.seconds > 0 && (job.status === 'queued' || job.status === 'processing')) {
      if (this.jobs.waiting >= this.config.x402StatusMaxWaiting) {
        const retryAfter = retryAfterSeconds(job);
        throw new RateLimitError(RateLimitErrorCode.TooManyRequests, `Too many requests wait for their jobs on this server; poll without wait, or retry after ${retryAfter} s.`, undefined, retryAfter);
      }
      // Removed while it was waited for: the lookup answers 410 as it would have.
      job = (await this.jobs.waitForEnd(job, asked.seconds * 1000, clientGoneSignal(reply))) ?? (await this.lookup.live(jobId));
    }
    if (asked.preferred) reply.header('Preference-Applied', `wait=${asked.seconds}`);
    const view = jobStatusView(job, { baseUrl: publicBaseUrl(this.config, request), prices: this.config.prices, webhook: await this.jobs.webhookOf(job.id) });
    if ('retry_after_seconds' in view) reply.header('Retry-After', String(view.retry_after_seconds));
    reply.header('Cache-Control', 'no-store');
    return view;
  }

  @Get(':job_id/result')
  @Paid(PAID_ROUTES[PURCHASE_RESULT_OPERATION])
  @ApiOperation({
    operationId: PURCHASE_RESULT_OPERATION,
    summary: `Buy a finished result (paid: dynamic price by uploaded size, ${CONFIGURED.resultPrices}).`,
    description:
      '409 result_not_ready while queued or processing; 409 conversion_failed when the job failed; 410 when the result is no longer stored ' +
      '(nothing is charged in each case). Once bought, later calls return a download URL again without charging.',
  })
  @ApiParam({ name: 'job_id', schema: { type: 'string', pattern: JOB_ID_PATTERN.source } })
  @ApiJsonResponse(200, PurchasedConversionResultSchema, 'The result is paid; download_url is valid for one hour.')
  @ApiErrors(400, 404, 409, 410, 429, 500, 503)
  result(@Param('job_id') jobId: string, @Req() request: FastifyRequest, @Payment() payment: RoutePayment): Promise<PurchasedConversionResult> {
    return this.results.purchase(jobId, payment, publicBaseUrl(this.config, request));
  }

  @Delete(':job_id/delete')
  @ApiOperation({ operationId: 'deleteConversionJob', summary: 'Delete the job, its input and its result now (free; the job id is the access key). A running conversion is stopped.' })
  @ApiParam({ name: 'job_id', schema: { type: 'string', pattern: JOB_ID_PATTERN.source } })
  @ApiJsonResponse(200, DeleteJobResponseSchema, 'Deleted. Later calls for this job answer 410.')
  @ApiErrors(400, 404, 410, 429, 500)
  async delete(@Param('job_id') jobId: string): Promise<{ success: boolean; message: string }> {
    await this.jobs.remove(await this.lookup.live(jobId), 'deleted');
    return { success: true, message: 'The job, its uploaded file and its result were deleted.' };
  }

  private accepted(job: ConversionJob, request: FastifyRequest, reply: FastifyReply, message?: string): ConversionJobAccepted {
    const retryAfter = retryAfterSeconds(job);
    reply.header('Retry-After', String(retryAfter));
    return {
      job_id: job.id,
      status: 'processing',
      status_url: `${publicBaseUrl(this.config, request)}/api/x402/v1/convert-file/${job.id}/status`,
      retry_after_seconds: retryAfter,
      message: message ?? `Converting ${job.detectedInputFormat} to ${job.targetFormat}.`,
    };
  }
}

/** A JSON body names the file by its source_url (docs/source-urls.md); anything else is read as an upload. */
function isJson(request: FastifyRequest): boolean {
  return /^application\/(?:[\w.+-]+\+)?json\b/i.test(request.headers['content-type'] ?? '');
}
