import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Inject, Injectable } from '@nestjs/common';
import { formatByExtension } from '@fileshift/formats';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import { DetectionService } from '../detection/detection.service.js';
import type { ConversionJob } from '../jobs/conversion-job.entity.js';
import { ConversionJobsRepository } from '../jobs/conversion-jobs.repository.js';
import { ConversionRequestError, ConversionRequestErrorCode } from '../jobs/conversion-request.error.js';
import { JobDispatcher } from '../jobs/job-dispatcher.js';
import { newJobId } from '../jobs/job-id.js';
import { JobRemovalService } from '../jobs/job-removal.service.js';
import { jobInputKey } from '../jobs/job-storage-keys.js';
import type { KeyApiCaller } from './key-api-caller.js';
import { KeyApiRequestError, KeyApiRequestErrorCode } from './key-api-request.error.js';
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
    private readonly uploads: KeyApiUploads,
    private readonly detection: DetectionService,
    private readonly jobs: ConversionJobsRepository,
    private readonly dispatcher: JobDispatcher,
    private readonly removal: JobRemovalService,
  ) {}

  /** Converts and waits for the job to finish; errors in the key API's terms otherwise. */
  async convert(caller: KeyApiCaller, request: KeyApiConvertRequest, signal: AbortSignal): Promise<ConversionJob> {
    const upload = await this.uploads.findOwned(request.filename, caller.apiKeyId);
    if (!upload) {
      throw new KeyApiRequestError(KeyApiRequestErrorCode.UnknownUpload, `No uploaded file named "${request.filename}". Upload it with POST /api/v1/upload first; uploads expire after 24 hours.`);
    }
    const declared = formatByExtension(request.ext_in);
    if (!declared) throw new KeyApiRequestError(KeyApiRequestErrorCode.UnknownExtension, `Unknown input extension "${request.ext_in}".`);
    const target = formatByExtension(request.ext_out);
    if (!target) throw new KeyApiRequestError(KeyApiRequestErrorCode.UnknownExtension, `Unknown output extension "${request.ext_out}".`);
    // ext_in is a hint like a file name's extension; the evidence rule decides from the bytes (README: "ext_in versus the bytes").
    const source = this.detection.sourceFormat({ filename: `upload.${declared.extension}`, sizeBytes: upload.sizeBytes, header: upload.head }, target.id);
    if (!source.ok) {
      const code = source.problem === 'no_conversion_path' ? ConversionRequestErrorCode.NoConversionPath : ConversionRequestErrorCode.UnreadableInput;
      throw new ConversionRequestError(code, `${source.message} POST /api/v1/list_ext_out lists what ${request.ext_in} converts to.`);
    }
    const job = await this.jobFor(upload, caller, source.format, target.id);
    return this.waitForEnd(job, signal);
  }

  private async jobFor(upload: KeyApiUpload, caller: KeyApiCaller, source: string, target: string): Promise<ConversionJob> {
    // A space never occurs in x402 Idempotency-Keys, so these keys cannot collide with a client's.
    const dedupeKey = `key-api ${upload.filename} ${target}`;
    const existing = await this.jobs.findByIdempotencyKey(dedupeKey);
    if (existing?.status === 'failed') await this.removal.remove(existing, 'deleted');
    else if (existing) {
      if (existing.status === 'queued') await this.dispatcher.dispatch(existing.id);
      return existing;
    }

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
        originalFilename: upload.originalFilename,
        fileCreatedAt: upload.createdAt,
        inputSizeBytes: upload.sizeBytes,
        inputSha256: upload.sha256,
        detectedInputFormat: source,
        targetFormat: target,
        idempotencyKey: dedupeKey,
        requestFingerprint: dedupeKey,
        // The /tmp/ name is fixed now and served once the job is done; it lives as long as the job.
        download: { token: randomBytes(24).toString('base64url'), expiresAt },
        expiresAt,
      });
    } catch (error) {
      await this.uploads.discardCopy(jobInputKey(id));
      // Two identical requests at once: the other one created the job; wait for it.
      if ((error as { driverError?: { code?: string } }).driverError?.code === '23505') return (await this.jobs.findByIdempotencyKey(dedupeKey))!;
      throw error;
    }
    await this.dispatcher.dispatch(job.id);
    return job;
  }

  private async waitForEnd(job: ConversionJob, signal: AbortSignal): Promise<ConversionJob> {
    const waitSeconds = this.config.keyApi.convertWaitSeconds;
    const deadline = Date.now() + waitSeconds * 1000;
    let delay = FIRST_POLL_MS;
    for (let current: ConversionJob | null = job; ; ) {
      if (!current) throw new KeyApiRequestError(KeyApiRequestErrorCode.ConversionRemoved, 'The conversion was removed while it ran; convert the file again.');
      if (current.status === 'done') return current;
      if (current.status === 'failed') {
        throw new KeyApiRequestError(KeyApiRequestErrorCode.ConversionFailed, `The conversion failed (${current.failureType ?? 'unknown'}): ${current.failureMessage ?? 'no details'}`);
      }
      if (Date.now() >= deadline) {
        throw new KeyApiRequestError(
          KeyApiRequestErrorCode.ConversionTimeout,
          `The conversion did not finish within ${waitSeconds} s. It goes on: send the same request again to wait for it.`,
          undefined,
          5,
        );
      }
      await sleep(Math.min(delay, Math.max(0, deadline - Date.now())), undefined, { signal }).catch(() => undefined);
      if (signal.aborted) throw new KeyApiRequestError(KeyApiRequestErrorCode.ClientGone, 'The client went away.');
      delay = Math.min(delay * 1.5, MAX_POLL_MS);
      current = await this.jobs.find(job.id);
    }
  }
}
