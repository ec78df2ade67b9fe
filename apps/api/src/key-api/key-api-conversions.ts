import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { ConversionOptions, ConversionPlan } from '@fileshift/converters';
import { resolveFormat } from '@fileshift/formats';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import { canonicalOptions, checkedOptions } from '../catalogue/conversion-choice.js';
import { DetectionService } from '../detection/detection.service.js';
import type { ConversionJob } from '../conversion-jobs/conversion-job.entity.js';
import { ConversionJobsRepository } from '../conversion-jobs/conversion-jobs.repository.js';
import { ConversionRequestError, ConversionRequestErrorCode } from '../conversion-jobs/conversion-start.error.js';
import { JobDispatcher } from '../conversion-jobs/job-dispatcher.js';
import { JobEndSignals } from '../conversion-jobs/job-end-signals.js';
import { newJobId } from '../conversion-jobs/job-id.js';
import { JobRemovalService } from '../conversion-jobs/job-removal.service.js';
import { jobInputKey } from '../conversion-jobs/job-storage-keys.js';
import type { KeyApiCaller } from './key-api-caller.js';
import { KeyApiRequestError, KeyApiRequestErrorCode } from './key-api-request.error.js';
import type { KeyApiUpload } from './key-api-upload.entity.js';
import { KEY_API_FILE_RETENTION_MS, KeyApiUploads } from './key-api-uploads.js';
import type { KeyApiConvertRequest } from './key-api.schemas.js';

/** Without an announcement (lost, or Redis down) the job is read again after this long. */
const FALLBACK_CHECK_MS = 1000;

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
    private readonly ends: JobEndSignals,
  ) {}

  /** Converts and waits for the job to finish; errors in the key API's terms otherwise. */
  async convert(caller: KeyApiCaller, request: KeyApiConvertRequest, signal: AbortSignal): Promise<ConversionJob> {
    const upload = await this.uploads.findOwned(request.filename, caller.apiKeyId);
    if (!upload) {
      throw new KeyApiRequestError(KeyApiRequestErrorCode.UnknownUpload, `No uploaded file named "${request.filename}". Upload it with POST /api/v1/upload first; uploads expire after 24 hours.`);
    }
    const declared = resolveFormat(request.ext_in);
    if (!declared) throw new KeyApiRequestError(KeyApiRequestErrorCode.UnknownExtension, `Unknown input extension "${request.ext_in}".`);
    const target = resolveFormat(request.ext_out);
    if (!target) throw new KeyApiRequestError(KeyApiRequestErrorCode.UnknownExtension, `Unknown output extension "${request.ext_out}".`);
    // ext_in is a hint like a file name's extension; the evidence rule decides from the bytes (README: "ext_in versus the bytes").
    const source = await this.detection.planConversion({ filename: `upload.${declared.extension}`, sizeBytes: upload.sizeBytes, header: upload.head }, target.id);
    if (!source.ok) {
      const code = source.problem === 'no_conversion_path' ? ConversionRequestErrorCode.NoConversionPath : ConversionRequestErrorCode.UnreadableInput;
      throw new ConversionRequestError(code, `${source.message} POST /api/v1/list_ext_out lists what ${request.ext_in} converts to.`);
    }
    const plan = source.plans[0]!;
    const job = await this.jobFor(upload, caller, { source: source.format, target: target.id, plan, options: checkedOptions(request.options, plan) });
    return this.waitForEnd(job, signal);
  }

  private async jobFor(upload: KeyApiUpload, caller: KeyApiCaller, conversion: { source: string; target: string; plan: ConversionPlan; options: ConversionOptions }): Promise<ConversionJob> {
    const { source, target, plan, options } = conversion;
    // A space never occurs in x402 Idempotency-Keys, so these keys cannot collide with a client's.
    const optionsKey = Object.keys(options).length > 0 ? ` ${canonicalOptions(options)}` : '';
    const dedupeKey = `key-api ${upload.filename} ${target}${optionsKey}`;
    const existing = await this.jobs.findByIdempotencyKey(dedupeKey);
    if (existing?.status === 'failed') await this.removal.remove(existing, 'deleted');
    else if (existing) {
      if (existing.status === 'queued') await this.dispatcher.dispatch(existing);
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
        plan,
        options,
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
    await this.dispatcher.dispatch(job);
    return job;
  }

  /**
   * Waits for the job's end as the worker announces it (no database polling): each round registers for the
   * announcement first, then reads the job, so an end in between is not missed; a lost announcement costs at
   * most a second.
   */
  private async waitForEnd(job: ConversionJob, signal: AbortSignal): Promise<ConversionJob> {
    const waitSeconds = this.config.keyApi.convertWaitSeconds;
    const deadline = Date.now() + waitSeconds * 1000;
    for (let current: ConversionJob | null = job; ; ) {
      const announced = this.ends.waitForEnd(job.id, Math.min(FALLBACK_CHECK_MS, Math.max(0, deadline - Date.now())), signal);
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
      await announced;
      if (signal.aborted) throw new KeyApiRequestError(KeyApiRequestErrorCode.ClientGone, 'The client went away.');
      current = await this.jobs.find(job.id);
    }
  }
}
