import { Inject, Injectable } from '@nestjs/common';
import { resolveFormat } from '@fileshift/formats';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import type { ConversionJob } from '../conversion-jobs/conversion-job.entity.js';
import { type ConversionInput, ConversionJobs, joinedInput, type MemberInput } from '../conversion-jobs/conversion-jobs.service.js';
import { MAX_UPLOAD_BYTES } from '../config/upload-limit.js';
import { UploadError, UploadErrorCode } from '../http-kit/upload.error.js';
import { ConversionStartError, ConversionStartErrorCode } from '../conversion-jobs/conversion-start.error.js';
import { checkedCallerUrl } from '../outbound/caller-url.js';
import type { KeyApiCaller } from './key-api-caller.js';
import type { KeyApiConversion } from './key-api-conversion.entity.js';
import { KeyApiConversionRecords } from './key-api-conversion-records.js';
import { KeyApiRequestError, KeyApiRequestErrorCode } from './key-api-request.error.js';
import type { KeyApiUpload } from './key-api-upload.entity.js';
import { KEY_API_FILE_RETENTION_MS, KeyApiUploads, uploadStorageKey } from './key-api-uploads.js';
import type { KeyApiConvertRequest } from './key-api.schemas.js';

/** A finished conversion of the key API and its record (the /tmp/ name of its result). */
export interface KeyApiResult {
  job: ConversionJob;
  record: KeyApiConversion;
}

/**
 * POST /api/v1/convert in the core's terms: the caller's upload as the input (copied into the job), ext_in as the
 * name detection reads, the request itself as the dedupe key (the same upload, target and options are the same
 * conversion: repeating a request after a timeout waits for it), every page as a file of its own, and the job
 * awaited within a bound.
 */
@Injectable()
export class KeyApiConversions {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly uploads: KeyApiUploads,
    private readonly jobs: ConversionJobs,
    private readonly records: KeyApiConversionRecords,
  ) {}

  /**
   * Converts and waits for the job to finish; errors in the key API's terms otherwise. `serviceUrl`: the address the
   * request reached (a webhook's event names the did:web key of it).
   */
  async convert(caller: KeyApiCaller, request: KeyApiConvertRequest, signal: AbortSignal, serviceUrl: string): Promise<KeyApiResult> {
    const webhookUrl = request.webhook_url === undefined ? undefined : checkedCallerUrl('webhook_url', request.webhook_url, this.config.outbound.policy);
    const upload = await this.ownedUpload(request.filename, caller);
    const others = await Promise.all((request.join ?? []).map((filename) => this.ownedUpload(filename, caller)));
    const declared = resolveFormat(request.ext_in);
    if (!declared) throw new KeyApiRequestError(KeyApiRequestErrorCode.UnknownExtension, `Unknown input extension "${request.ext_in}".`);
    const target = resolveFormat(request.ext_out);
    if (!target) throw new KeyApiRequestError(KeyApiRequestErrorCode.UnknownExtension, `Unknown output extension "${request.ext_out}".`);
    // ext_in is a hint like a file name's extension; the evidence rule decides from the bytes (docs/api/key-api-guide.md).
    const first = { filename: upload.originalFilename, detectAs: `upload.${declared.extension}`, sizeBytes: upload.sizeBytes, sha256: upload.sha256, createdAt: upload.createdAt, head: upload.head };
    const members = others.length > 0 ? membersOf(first, upload, others) : undefined;
    const { job } = await this.jobs
      .start({
        origin: 'key_api',
        input: members ? joinedInput(upload.originalFilename, upload.createdAt, members) : first,
        bytes: { copyFrom: uploadStorageKey(upload.filename) },
        ...(members ? { members } : {}),
        target: target.id,
        options: request.options,
        delivery: 'parts',
        retentionMs: KEY_API_FILE_RETENTION_MS,
        dedupe: { sameRequest: members ? JSON.stringify([upload.filename, ...(request.join ?? [])]) : upload.filename },
        ...(webhookUrl ? { webhookUrl, serviceUrl } : {}),
      })
      .catch((error: unknown) => {
        if (error instanceof ConversionStartError && (error.code === ConversionStartErrorCode.UnreadableInput || error.code === ConversionStartErrorCode.NoConversionPath)) {
          throw new ConversionStartError(error.code, `${error.message} POST /api/v1/list_ext_out lists what ${request.ext_in} converts to.`);
        }
        throw error;
      });
    // The /tmp/ name is fixed now, served once the job is done; it lives as long as the job.
    const record = await this.records.recordFor(job.id, caller.apiKeyId);
    return { job: await this.waitForEnd(job, signal), record };
  }

  /** The caller's upload of that Filename; 404 otherwise. */
  private async ownedUpload(filename: string, caller: KeyApiCaller): Promise<KeyApiUpload> {
    const upload = await this.uploads.findOwned(filename, caller.apiKeyId);
    if (!upload) throw new KeyApiRequestError(KeyApiRequestErrorCode.UnknownUpload, `No uploaded file named "${filename}". Upload it with POST /api/v1/upload first; uploads expire after 24 hours.`);
    return upload;
  }

  /** The job once done; its failure, its removal, the end of the wait or the client's leaving in the key API's terms. */
  private async waitForEnd(job: ConversionJob, signal: AbortSignal): Promise<ConversionJob> {
    const waitSeconds = this.config.keyApi.convertWaitSeconds;
    const ended = await this.jobs.waitForEnd(job, waitSeconds * 1000, signal);
    if (!ended) throw new KeyApiRequestError(KeyApiRequestErrorCode.ConversionRemoved, 'The conversion was removed while it ran; convert the file again.');
    if (ended.status === 'done') return ended;
    if (ended.status === 'failed') {
      throw new KeyApiRequestError(KeyApiRequestErrorCode.ConversionFailed, `The conversion failed (${ended.failureType ?? 'unknown'}): ${ended.failureMessage ?? 'no details'}`);
    }
    if (signal.aborted) throw new KeyApiRequestError(KeyApiRequestErrorCode.ClientGone, 'The client went away.');
    throw new KeyApiRequestError(KeyApiRequestErrorCode.ConversionTimeout, `The conversion did not finish within ${waitSeconds} s. It goes on: send the same request again to wait for it.`, undefined, 5);
  }
}

/** A join's members: the first upload as `first` describes it, then the others, each as its own name and bytes say; together within the upload limit. */
function membersOf(first: ConversionInput, upload: KeyApiUpload, others: readonly KeyApiUpload[]): MemberInput[] {
  const members: MemberInput[] = [
    { input: first, copyFrom: uploadStorageKey(upload.filename) },
    ...others.map((other) => ({
      input: { filename: other.originalFilename, sizeBytes: other.sizeBytes, sha256: other.sha256, createdAt: other.createdAt, head: other.head },
      copyFrom: uploadStorageKey(other.filename),
    })),
  ];
  const total = members.reduce((sum, member) => sum + member.input.sizeBytes, 0);
  if (total > MAX_UPLOAD_BYTES) throw new UploadError(UploadErrorCode.TooLarge, `The files together are ${total} bytes, more than the ${MAX_UPLOAD_BYTES} one job takes.`, { max_bytes: MAX_UPLOAD_BYTES });
  return members;
}
