import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { getFormat } from '@fileshift/formats';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import { CONVERSION_GRAPH, type ConversionTargets } from '../conversion/conversion-graph.token.js';
import { DetectionService } from '../detection/detection.service.js';
import { ApiErrorCode, ApiErrorException } from '../http/api-error.exception.js';
import { JobName } from '../queue/job-contract.js';
import { JobService } from '../queue/job.service.js';
import { FILE_STORAGE, type FileStorage } from '../storage/file-storage.js';
import type { ConversionJob } from './conversion-job.entity.js';
import { ConversionJobsRepository } from './conversion-jobs.repository.js';
import type { CreateConversionJobFields } from './convert-file.schemas.js';
import { newJobId } from './job-id.js';
import { jobInputKey } from './job-storage-keys.js';
import type { Upload } from './upload-reader.js';

export const JOB_RETENTION_MS = 24 * 3600 * 1000;

export interface ValidatedConversion {
  fields: CreateConversionJobFields;
  upload: Required<Upload>;
  detectedFormat: string;
  fingerprint: string;
}

/** Conversion jobs: validation of a request, creation once paid, queueing. */
@Injectable()
export class ConversionJobsService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CONVERSION_GRAPH) private readonly graph: ConversionTargets,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
    private readonly detection: DetectionService,
    private readonly jobs: ConversionJobsRepository,
    private readonly queue: JobService,
  ) {}

  /** Everything that can be checked before payment: a request that cannot succeed is refused unpaid. */
  validate(fields: CreateConversionJobFields, upload: Upload): ValidatedConversion {
    if (!upload.file) throw invalid('file', 'the multipart part "file" is missing');
    if (upload.file.size !== fields.size_bytes) {
      throw invalid('size_bytes', `is ${fields.size_bytes} but ${upload.file.size} bytes arrived`);
    }
    const target = getFormat(fields.target_format);
    if (!target) throw invalid('target_format', `"${fields.target_format}" is not a known output format`);
    const report = this.detection.detect({
      filename: fields.filename,
      sizeBytes: upload.file.size,
      createdAt: new Date(fields.created_at),
      header: upload.file.head,
    });
    const detected = report.detected_format?.format;
    if (!detected) throw invalid('file', 'the file type could not be detected, so it cannot be converted');
    if (!this.graph.targetsOf(detected).includes(target.id)) {
      throw invalid('target_format', `no conversion from ${detected} to ${target.id} is available`);
    }
    const fingerprint = createHash('sha256')
      .update(JSON.stringify([target.id, fields.filename, fields.created_at, fields.size_bytes, upload.file.sha256]))
      .digest('hex');
    return { fields: { ...fields, target_format: target.id }, upload: upload as Required<Upload>, detectedFormat: detected, fingerprint };
  }

  /** The job an Idempotency-Key already created; 409 when the key came with other parameters. */
  async existingFor(idempotencyKey: string | undefined, fingerprint: string): Promise<ConversionJob | null> {
    if (!idempotencyKey) return null;
    const job = await this.jobs.findByIdempotencyKey(idempotencyKey);
    if (job && job.requestFingerprint !== fingerprint) {
      throw new ApiErrorException(409, ApiErrorCode.Conflict, 'This Idempotency-Key was used with different request parameters.', { idempotency_key: idempotencyKey });
    }
    return job;
  }

  /** Creates the job (not yet queued) and moves the upload to it; runs once the fee is verified. */
  async create(request: ValidatedConversion, idempotencyKey: string | undefined): Promise<ConversionJob> {
    const id = newJobId();
    await this.storage.move(request.upload.file.key, jobInputKey(id));
    try {
      return await this.jobs.create({
        id,
        origin: 'x402',
        apiKeyId: null,
        status: 'queued',
        progressPercent: 0,
        originalFilename: request.fields.filename,
        fileCreatedAt: new Date(request.fields.created_at),
        inputSizeBytes: request.upload.file.size,
        inputSha256: request.upload.file.sha256,
        detectedInputFormat: request.detectedFormat,
        targetFormat: request.fields.target_format,
        resultSizeBytes: null,
        failureType: null,
        failureMessage: null,
        idempotencyKey: idempotencyKey ?? null,
        requestFingerprint: request.fingerprint,
        finishedAt: null,
        resultPurchase: null,
        downloadToken: null,
        downloadExpiresAt: null,
        expiresAt: new Date(Date.now() + JOB_RETENTION_MS),
      });
    } catch (error) {
      await this.storage.delete(jobInputKey(id));
      if ((error as { driverError?: { code?: string } }).driverError?.code === '23505') {
        throw new ApiErrorException(409, ApiErrorCode.Conflict, 'Another request with this Idempotency-Key is being processed; retry shortly.');
      }
      throw error;
    }
  }

  /** The fee settled: the job may run. */
  async start(job: ConversionJob): Promise<void> {
    await this.queue.enqueue(JobName.ConvertFile, { jobId: job.id }, { jobId: job.id, attempts: 3, backoff: { type: 'exponential', delay: 2000 } });
  }

  /** The fee did not settle: no trace of the job remains. */
  async discard(job: ConversionJob): Promise<void> {
    await this.jobs.delete(job.id);
    await this.storage.delete(jobInputKey(job.id));
  }

  /** An x402 job; key API jobs are not reachable through the x402 API. */
  async find(id: string): Promise<ConversionJob | null> {
    const job = await this.jobs.find(id);
    return job?.origin === 'x402' ? job : null;
  }

  tombstone(id: string) {
    return this.jobs.findTombstone(id);
  }
}

function invalid(field: string, message: string): ApiErrorException {
  return new ApiErrorException(422, ApiErrorCode.ValidationError, `Validation failed: ${field}: ${message}`, { fields: [{ field, message }] });
}
