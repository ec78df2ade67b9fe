import { Controller, Delete, Get, Headers, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiHeader, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { answerWithoutCharge, chargeFor, type FreeAnswer, Paid, type PaidWork } from '@fileshift/x402-nest';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import { publicBaseUrl } from '../discovery/public-base-url.js';
import { ApiErrorCode, ApiErrorException } from '../http/api-error.exception.js';
import { ApiErrors, ApiJsonResponse, POLL_HEADERS } from '../http/api-docs.decorators.js';
import { schemaRef } from '../http/api-schema-registry.js';
import { ZodValidationPipe } from '../http/zod-validation.pipe.js';
import type { ConversionJob } from './conversion-job.entity.js';
import { ConversionJobsService } from './conversion-jobs.service.js';
import { type ConversionJobAccepted, ConversionJobAcceptedSchema, DeleteJobResponseSchema, CreateConversionJobFieldsSchema, CreateConversionJobRequestSchema } from './convert-file.schemas.js';
import { JOB_ID_PATTERN } from './job-id.js';
import { JobStatusSchema, type JobStatusBody } from './job-status.schemas.js';
import { jobStatusView, retryAfterSeconds } from './job-status-view.js';
import { JobRemovalService } from './job-removal.service.js';
import { PURCHASE_RESULT_OPERATION, ResultPurchaseService } from './result-purchase.service.js';
import { type PurchasedConversionResult, PurchasedConversionResultSchema } from './result.schemas.js';
import { UploadReader } from './upload-reader.js';

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{8,128}$/;
const fieldsPipe = new ZodValidationPipe(CreateConversionJobFieldsSchema);

@ApiTags('x402')
@Controller('api/x402/v1/convert-file')
export class ConvertFileController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly jobs: ConversionJobsService,
    private readonly uploads: UploadReader,
    private readonly results: ResultPurchaseService,
    private readonly removal: JobRemovalService,
  ) {}

  @Post()
  @HttpCode(202)
  @Paid({ name: 'createConversionJob', description: 'Upload a file and start an asynchronous conversion job.' })
  @ApiOperation({
    operationId: 'createConversionJob',
    summary: 'Start a conversion job (paid: job creation fee, non-refundable).',
    description:
      'The upload is validated (size, size_bytes, target_format, a conversion path from the detected input format) before ' +
      'the payment challenge. With the same Idempotency-Key and the same parameters the existing job is returned and no fee is charged again.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: schemaRef(CreateConversionJobRequestSchema) as never, required: true })
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: '8..128 printable characters; prevents duplicate jobs and fees on retry.' })
  @ApiJsonResponse(202, ConversionJobAcceptedSchema, 'Job accepted; poll status_url. Retry-After suggests when.', POLL_HEADERS)
  @ApiErrors(400, 409, 413, 415, 422, 429, 500, 503)
  async create(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
  ): Promise<PaidWork<ConversionJob, ConversionJobAccepted> | FreeAnswer<ConversionJobAccepted>> {
    if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY.test(idempotencyKey)) {
      throw new ApiErrorException(422, ApiErrorCode.ValidationError, 'Validation failed: Idempotency-Key must be 8..128 printable characters.', {
        fields: [{ field: 'Idempotency-Key', message: 'must be 8..128 printable characters' }],
      });
    }
    const upload = await this.uploads.read(request);
    try {
      const validated = this.jobs.validate(fieldsPipe.transform(upload.fields), upload);
      const existing = await this.jobs.existingFor(idempotencyKey, validated.fingerprint);
      if (existing) {
        await this.uploads.discard(upload);
        return answerWithoutCharge(this.accepted(existing, request, reply, 'Existing job for this Idempotency-Key; no new fee was charged.'));
      }
      return chargeFor(this.config.prices.jobAtomic, () => this.jobs.create(validated, idempotencyKey), {
        present: async (job) => {
          await this.jobs.start(job);
          return this.accepted(job, request, reply);
        },
        abandon: (job) => this.jobs.discard(job),
        onRefused: () => this.uploads.discard(upload),
      });
    } catch (error) {
      await this.uploads.discard(upload);
      throw error;
    }
  }

  @Get(':job_id/status')
  @ApiOperation({ operationId: 'getConversionJobStatus', summary: 'Job status (free; the job id is the access key).' })
  @ApiParam({ name: 'job_id', schema: { type: 'string', pattern: JOB_ID_PATTERN.source } })
  @ApiResponse({
    status: 200,
    description: 'Processing, done or failed.',
    content: { 'application/json': { schema: schemaRef(JobStatusSchema) as never } },
    headers: POLL_HEADERS as never,
  })
  @ApiErrors(400, 404, 410, 429, 500)
  async status(@Param('job_id') jobId: string, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<JobStatusBody> {
    const job = await this.liveJob(jobId);
    const view = jobStatusView(job, { baseUrl: publicBaseUrl(this.config, request), prices: this.config.prices });
    if ('retry_after_seconds' in view) reply.header('Retry-After', String(view.retry_after_seconds));
    reply.header('Cache-Control', 'no-store');
    return view;
  }

  @Get(':job_id/result')
  @Paid({ name: PURCHASE_RESULT_OPERATION, description: 'Buy the result of a finished conversion; returns a download URL valid for one hour.' })
  @ApiOperation({
    operationId: PURCHASE_RESULT_OPERATION,
    summary: 'Buy a finished result (paid: dynamic price by uploaded size, 0.02 or 0.04 USDC).',
    description: '409 result_not_ready while queued or processing; 409 conversion_failed when the job failed (nothing is charged). Once bought, later calls return a download URL again without charging.',
  })
  @ApiParam({ name: 'job_id', schema: { type: 'string', pattern: JOB_ID_PATTERN.source } })
  @ApiJsonResponse(200, PurchasedConversionResultSchema, 'The result is paid; download_url is valid for one hour.')
  @ApiErrors(400, 404, 409, 410, 429, 500, 503)
  async result(
    @Param('job_id') jobId: string,
    @Req() request: FastifyRequest,
  ): Promise<PaidWork<ConversionJob, PurchasedConversionResult> | FreeAnswer<PurchasedConversionResult>> {
    const job = await this.liveJob(jobId);
    const baseUrl = publicBaseUrl(this.config, request);
    const priceAtomic = this.results.priceOf(job);
    if (job.resultPurchase === 'paid') return answerWithoutCharge(await this.results.deliver(job, baseUrl));
    return chargeFor(priceAtomic, () => this.results.claim(job), {
      reference: job.id,
      present: (claimed, receipt) => this.results.deliver(claimed, baseUrl, receipt),
      abandon: (claimed) => this.results.release(claimed),
    });
  }

  @Delete(':job_id/delete')
  @ApiOperation({ operationId: 'deleteConversionJob', summary: 'Delete the job, its input and its result now (free; the job id is the access key).' })
  @ApiParam({ name: 'job_id', schema: { type: 'string', pattern: JOB_ID_PATTERN.source } })
  @ApiJsonResponse(200, DeleteJobResponseSchema, 'Deleted. Later calls for this job answer 410.')
  @ApiErrors(400, 404, 410, 429, 500)
  async delete(@Param('job_id') jobId: string): Promise<{ success: boolean; message: string }> {
    const job = await this.liveJob(jobId);
    await this.removal.remove(job, 'deleted');
    return { success: true, message: 'The job, its uploaded file and its result were deleted.' };
  }

  private async liveJob(jobId: string): Promise<ConversionJob> {
    if (!JOB_ID_PATTERN.test(jobId)) throw new ApiErrorException(400, ApiErrorCode.BadRequest, 'job_id must match ^job_[A-Za-z0-9_-]{22,80}$.');
    const job = await this.jobs.find(jobId);
    if (!job) {
      const tombstone = await this.jobs.tombstone(jobId);
      if (tombstone) throw new ApiErrorException(410, ApiErrorCode.Gone, tombstone.reason === 'deleted' ? 'The job was deleted.' : 'The job and its result expired.');
      throw new ApiErrorException(404, ApiErrorCode.NotFound, 'No such job.');
    }
    if (job.expiresAt.getTime() <= Date.now()) throw new ApiErrorException(410, ApiErrorCode.Gone, 'The job and its result expired.');
    return job;
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
