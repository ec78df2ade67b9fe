import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Inject, Injectable } from '@nestjs/common';
import { type FileFormat, formatByExtension, getFormat } from '@fileshift/formats';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import { CONVERSION_GRAPH, type ConversionTargets } from '../conversion/conversion-graph.token.js';
import { DetectionService } from '../detection/detection.service.js';
import { ApiErrorCode, ApiErrorException } from '../http/api-error.exception.js';
import type { ConversionJob } from '../jobs/conversion-job.entity.js';
import { ConversionJobsRepository } from '../jobs/conversion-jobs.repository.js';
import { ConversionJobsService } from '../jobs/conversion-jobs.service.js';
import { JobRemovalService } from '../jobs/job-removal.service.js';
import { newJobId } from '../jobs/job-id.js';
import { jobInputKey } from '../jobs/job-storage-keys.js';
import { FILE_STORAGE, type FileStorage } from '../storage/file-storage.js';
import type { KeyApiCaller } from './key-api-caller.js';
import type { KeyApiUpload } from './key-api-upload.entity.js';
import { KEY_API_FILE_RETENTION_MS, KeyApiUploads } from './key-api-uploads.js';
import type { KeyApiConvertRequest } from './key-api.schemas.js';

const FIRST_POLL_MS = 100;
const MAX_POLL_MS = 1000;

/**
 * POST /api/v1/convert: the same jobs, queue and workers as the x402 API, awaited within a bound.
 * One job per (upload, target): repeating a request after a timeout waits for the same conversion.
 */
@Injectable()
export class KeyApiConversions {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CONVERSION_GRAPH) private readonly graph: ConversionTargets,
    private readonly uploads: KeyApiUploads,
    private readonly detection: DetectionService,
    private readonly jobs: ConversionJobsRepository,
    private readonly conversionJobs: ConversionJobsService,
    private readonly removal: JobRemovalService,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
  ) {}

  /** Converts and waits for the job to finish; errors in the key API's terms otherwise. */
  async convert(caller: KeyApiCaller, request: KeyApiConvertRequest, signal: AbortSignal): Promise<ConversionJob> {
    const upload = await this.uploads.findOwned(request.filename, caller.apiKeyId);
    if (!upload) throw new ApiErrorException(404, ApiErrorCode.NotFound, `No uploaded file named "${request.filename}". Upload it with POST /api/v1/upload first; uploads expire after 24 hours.`);
    const declared = formatByExtension(request.ext_in);
    if (!declared) throw new ApiErrorException(400, ApiErrorCode.BadRequest, `Unknown input extension "${request.ext_in}".`);
    const target = formatByExtension(request.ext_out);
    if (!target) throw new ApiErrorException(400, ApiErrorCode.BadRequest, `Unknown output extension "${request.ext_out}".`);
    const source = this.sourceFormat(upload, declared, target);
    if (!this.graph.targetsOf(source.id).includes(target.id)) {
      throw new ApiErrorException(400, ApiErrorCode.BadRequest, `Converting ${request.ext_in} to ${request.ext_out} is not supported. POST /api/v1/list_ext_out lists what ${request.ext_in} converts to.`);
    }
    const job = await this.jobFor(upload, caller, source, target);
    return this.waitForEnd(job, signal);
  }

  /**
   * The format to convert from. `ext_in` is a hint like a file name's extension: when the bytes say
   * the file is something else, the bytes win if that format can reach the target (the engines read
   * the bytes, not the label); otherwise the contradiction is reported.
   */
  private sourceFormat(upload: KeyApiUpload, declared: FileFormat, target: FileFormat): FileFormat {
    const report = this.detection.detect({ filename: `upload.${declared.extension}`, sizeBytes: upload.sizeBytes, header: upload.head });
    const detected = report.detected_format ? getFormat(report.detected_format.format) : undefined;
    if (!detected || detected.id === declared.id) return declared;
    if (this.graph.targetsOf(detected.id).includes(target.id)) return detected;
    throw new ApiErrorException(
      400,
      ApiErrorCode.BadRequest,
      `The uploaded file is ${detected.description} judging by its content, not .${declared.extension}; ${detected.extension} cannot be converted to ${target.extension}.`,
    );
  }

  private async jobFor(upload: KeyApiUpload, caller: KeyApiCaller, source: FileFormat, target: FileFormat): Promise<ConversionJob> {
    // A space never occurs in x402 Idempotency-Keys, so these keys cannot collide with a client's.
    const dedupeKey = `key-api ${upload.filename} ${target.id}`;
    const existing = await this.jobs.findByIdempotencyKey(dedupeKey);
    if (existing?.status === 'failed') await this.removal.remove(existing, 'deleted');
    else if (existing) return existing;

    const id = newJobId();
    await this.uploads.copyTo(upload, jobInputKey(id));
    const expiresAt = new Date(Date.now() + KEY_API_FILE_RETENTION_MS);
    let job: ConversionJob;
    try {
      job = await this.jobs.create({
        id,
        origin: 'key_api',
        apiKeyId: caller.apiKeyId,
        status: 'queued',
        progressPercent: 0,
        originalFilename: upload.originalFilename,
        fileCreatedAt: upload.createdAt,
        inputSizeBytes: upload.sizeBytes,
        inputSha256: upload.sha256,
        detectedInputFormat: source.id,
        targetFormat: target.id,
        resultSizeBytes: null,
        failureType: null,
        failureMessage: null,
        idempotencyKey: dedupeKey,
        requestFingerprint: dedupeKey,
        finishedAt: null,
        resultPurchase: null,
        // The /tmp/ name is fixed now and served once the job is done; it lives as long as the job.
        downloadToken: randomBytes(24).toString('base64url'),
        downloadExpiresAt: expiresAt,
        expiresAt,
      });
    } catch (error) {
      await this.storage.delete(jobInputKey(id));
      // Two identical requests at once: the other one created the job; wait for it.
      if ((error as { driverError?: { code?: string } }).driverError?.code === '23505') return (await this.jobs.findByIdempotencyKey(dedupeKey))!;
      throw error;
    }
    await this.conversionJobs.start(job);
    return job;
  }

  private async waitForEnd(job: ConversionJob, signal: AbortSignal): Promise<ConversionJob> {
    const waitSeconds = this.config.keyApi.convertWaitSeconds;
    const deadline = Date.now() + waitSeconds * 1000;
    let delay = FIRST_POLL_MS;
    for (let current: ConversionJob | null = job; ; ) {
      if (!current) throw new ApiErrorException(404, ApiErrorCode.NotFound, 'The conversion was removed while it ran; convert the file again.');
      if (current.status === 'done') return current;
      if (current.status === 'failed') {
        throw new ApiErrorException(422, 'conversion_failed', `The conversion failed (${current.failureType ?? 'unknown'}): ${current.failureMessage ?? 'no details'}`);
      }
      if (Date.now() >= deadline) {
        throw new ApiErrorException(
          504,
          'conversion_timeout',
          `The conversion did not finish within ${waitSeconds} s. It goes on: send the same request again to wait for it.`,
          undefined,
          { 'Retry-After': '5' },
        );
      }
      await sleep(Math.min(delay, Math.max(0, deadline - Date.now())), undefined, { signal }).catch(() => undefined);
      if (signal.aborted) throw new ApiErrorException(499, 'client_closed_request', 'The client went away.');
      delay = Math.min(delay * 1.5, MAX_POLL_MS);
      current = await this.jobs.find(job.id);
    }
  }
}
