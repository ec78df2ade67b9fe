import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { resolveFormat } from '@fileshift/formats';
import { AFTER_SETTLEMENT_RETRIES, type RoutePayment, withRetries } from '@fileshift/x402-nest';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import { canonicalOptions, checkedOptions, parsedOptionsField } from '../catalogue/conversion-choice.js';
import { DetectionService } from '../detection/detection.service.js';
import { RequestValidationError, validated } from '../errors/request-validation.error.js';
import type { ConversionJob } from '../conversion-jobs/conversion-job.entity.js';
import { ConversionJobsRepository } from '../conversion-jobs/conversion-jobs.repository.js';
import { ConversionRequestError, ConversionRequestErrorCode } from '../conversion-jobs/conversion-start.error.js';
import { CreateConversionJobFieldsSchema, IdempotencyKeySchema } from './convert-file.schemas.js';
import { JobDispatcher } from '../conversion-jobs/job-dispatcher.js';
import { newJobId } from '../conversion-jobs/job-id.js';
import { jobInputKey } from '../conversion-jobs/job-storage-keys.js';
import { type Upload, UploadReader } from '../http-kit/upload-reader.js';

export const JOB_RETENTION_MS = 24 * 3600 * 1000;

export interface ConversionRequest {
  /** From {@link ConversionRequestService.newUploadTarget}: the upload is already stored as this job's input. */
  jobId: string;
  upload: Upload;
  idempotencyKey?: string;
}

export interface AcceptedConversion {
  job: ConversionJob;
  /** The Idempotency-Key named an existing job: nothing was charged. */
  reused: boolean;
}

/** Starting an x402 conversion job: validate, collect the fee, record the job, settle, hand it to the queue. */
@Injectable()
export class ConversionRequestService {
  private readonly logger = new Logger(ConversionRequestService.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly detection: DetectionService,
    private readonly jobs: ConversionJobsRepository,
    private readonly dispatcher: JobDispatcher,
    private readonly uploads: UploadReader,
  ) {}

  /** The id a new request's job will have, and where its upload goes so it never has to move. */
  newUploadTarget(): { jobId: string; storageKey: string } {
    const jobId = newJobId();
    return { jobId, storageKey: jobInputKey(jobId) };
  }

  async request({ jobId, upload, idempotencyKey }: ConversionRequest, payment: RoutePayment): Promise<AcceptedConversion> {
    let uploadOwned = true;
    try {
      // 1. Everything that can be checked before payment: a request that cannot succeed is refused unpaid.
      const conversion = await this.validate(upload, idempotencyKey);
      // 2. A retry with the same Idempotency-Key gets its job again, free (and handed to the queue if it still waits).
      const existing = await this.existingFor(conversion.idempotencyKey, conversion.fingerprint);
      if (existing) {
        if (existing.status === 'queued') await this.dispatcher.dispatch(existing);
        return { job: existing, reused: true };
      }
      // 3. The fee: verified and recorded, not yet settled.
      const fee = await payment.collect(this.config.prices.jobAtomic, jobId);
      // 4. The job, not runnable until its fee settles; from here on it owns the upload.
      let job: ConversionJob;
      try {
        job = await this.jobs.create({ id: jobId, origin: 'x402', apiKeyId: null, status: 'awaiting_payment', ...conversion.record, expiresAt: new Date(Date.now() + JOB_RETENTION_MS) });
      } catch (error) {
        await fee.release('request_failed');
        throw isUniqueViolation(error) ? busy() : error;
      }
      uploadOwned = false;
      // 5. Settlement; when it fails no trace of the job remains (the upload goes in `finally`).
      try {
        await fee.settle();
      } catch (error) {
        await this.jobs.delete(jobId);
        uploadOwned = true;
        throw error;
      }
      // 6. Paid: the job may run. (The reconciler also promotes a job whose fee the ledger shows settled.)
      await withRetries(() => this.jobs.markPaid(jobId), { ...AFTER_SETTLEMENT_RETRIES, onRetry: (error) => this.logger.warn(`marking job ${jobId} paid failed; retrying: ${String(error)}`) });
      await this.faultPause(jobId);
      // 7. The queue; when Redis does not take it now, the reconciler does later.
      await this.dispatcher.dispatch(job);
      return { job: { ...job, status: 'queued' }, reused: false };
    } finally {
      if (uploadOwned) await this.uploads.discard(upload);
    }
  }

  private async validate(upload: Upload, idempotencyKey: string | undefined) {
    const key = validated(IdempotencyKeySchema, idempotencyKey);
    const fields = validated(CreateConversionJobFieldsSchema, upload.fields);
    if (!upload.file) throw RequestValidationError.of('file', 'the multipart part "file" is missing');
    if (upload.file.size !== fields.size_bytes) throw RequestValidationError.of('size_bytes', `is ${fields.size_bytes} but ${upload.file.size} bytes arrived`);
    const input = { filename: fields.filename, sizeBytes: upload.file.size, createdAt: new Date(fields.created_at), header: upload.file.head };
    const target = resolveFormat(fields.target_format);
    if (!target) {
      // The client may have misspelt it: tell it what it could ask for instead (GET /formats has the rest).
      const { source, targets } = await this.detection.validTargets(input);
      const among = source ? `${source} converts to` : 'the targets are';
      throw new RequestValidationError([{ field: 'target_format', message: `"${fields.target_format}" is not a known output format; ${among} ${targets.join(', ')}` }], {
        source_format: source,
        valid_targets: targets,
      });
    }
    const source = await this.detection.planConversion(input, target.id);
    if (!source.ok) {
      const field = source.problem === 'no_conversion_path' ? 'target_format' : 'file';
      const code = source.problem === 'no_conversion_path' ? ConversionRequestErrorCode.NoConversionPath : ConversionRequestErrorCode.UnreadableInput;
      const hints = source.problem === 'no_conversion_path' ? await this.detection.validTargets(input) : undefined;
      const valid = hints ? { source_format: hints.source, valid_targets: hints.targets } : {};
      throw new ConversionRequestError(code, `Validation failed: ${field}: ${source.message}`, { fields: [{ field, message: source.message }], ...valid });
    }
    const plan = source.plans[0]!;
    const options = checkedOptions(parsedOptionsField(fields.options), plan);
    const fingerprint = createHash('sha256')
      .update(JSON.stringify([target.id, fields.filename, fields.created_at, fields.size_bytes, upload.file.sha256, canonicalOptions(options)]))
      .digest('hex');
    return {
      idempotencyKey: key,
      fingerprint,
      record: {
        originalFilename: fields.filename,
        fileCreatedAt: new Date(fields.created_at),
        inputSizeBytes: upload.file.size,
        inputSha256: upload.file.sha256,
        detectedInputFormat: source.format,
        targetFormat: target.id,
        plan,
        options,
        idempotencyKey: key ?? null,
        requestFingerprint: fingerprint,
      },
    };
  }

  /** The job an Idempotency-Key already created; 409 when the key came with other parameters or is still being paid for. */
  private async existingFor(idempotencyKey: string | undefined, fingerprint: string): Promise<ConversionJob | null> {
    if (!idempotencyKey) return null;
    const job = await this.jobs.findByIdempotencyKey(idempotencyKey);
    if (!job) return null;
    if (job.requestFingerprint !== fingerprint) {
      throw new ConversionRequestError(ConversionRequestErrorCode.IdempotencyKeyReused, 'This Idempotency-Key was used with different request parameters.', { idempotency_key: idempotencyKey });
    }
    if (job.status === 'awaiting_payment') throw busy();
    return job;
  }

  /** Test-only fault injection (refused with live payments): a window to kill the process between settlement and enqueue. */
  private async faultPause(jobId: string): Promise<void> {
    const pauseMs = this.config.jobCycle.faultPauseBeforeEnqueueMs;
    if (!pauseMs) return;
    this.logger.warn(`fault injection: job ${jobId} is paid and queued; pausing ${pauseMs} ms before handing it to the queue`);
    await sleep(pauseMs);
  }
}

const busy = () => new ConversionRequestError(ConversionRequestErrorCode.IdempotencyKeyBusy, 'Another request with this Idempotency-Key is being processed; retry shortly.');

function isUniqueViolation(error: unknown): boolean {
  return (error as { driverError?: { code?: string } }).driverError?.code === '23505';
}
