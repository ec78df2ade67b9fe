import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { resolveFormat } from '@fileshift/formats';
import type { CollectedPayment, RoutePayment } from '@fileshift/x402-nest';
import { canonicalOptions } from '../conversion-requests/conversion-choice.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import { MAX_UPLOAD_BYTES } from '../config/upload-limit.js';
import { ConversionJobs, type JobCharge, type StartedConversion } from '../conversion-jobs/conversion-jobs.service.js';
import { DetectionService } from '../detection/detection.service.js';
import { RequestValidationError, validated } from '../errors/request-validation.error.js';
import { checkedCallerUrl } from '../outbound/caller-url.js';
import { releaseReasonOf } from '../source-urls/release-reason.js';
import { SourceFetcher } from '../source-urls/source-fetcher.js';
import { FILE_STORAGE, type FileStorage } from '../storage/file-storage.js';
import { type CreateConversionJobFromUrl, CreateConversionJobFromUrlSchema, IdempotencyKeySchema } from './convert-file.schemas.js';
import { dedupeOf, JOB_RETENTION_MS } from './paid-conversions.js';

/**
 * POST /api/x402/v1/convert-file with a JSON body naming `source_url`. Money follows the evidence: the fields and
 * the URL are checked, a repeated request finds its job, the job fee is collected (verified, not settled), the file is
 * fetched into the new job's input slot, and the core's start detects, plans and only then settles. Whatever fails
 * after the collection releases the payment: nothing is settled, and the answer says why.
 */
@Injectable()
export class PaidUrlConversions {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly jobs: ConversionJobs,
    private readonly detection: DetectionService,
    private readonly sources: SourceFetcher,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
  ) {}

  /** `serviceUrl`: the address the request reached the service at, which a webhook's events name. */
  async start(body: unknown, idempotencyKey: string | undefined, payment: RoutePayment, serviceUrl: string): Promise<StartedConversion> {
    const key = validated(IdempotencyKeySchema, idempotencyKey);
    const fields = validated(CreateConversionJobFromUrlSchema, body);
    const { policy } = this.config.outbound;
    const sourceUrl = checkedCallerUrl('source_url', fields.source_url, policy);
    const webhookUrl = fields.webhook_url === undefined ? undefined : checkedCallerUrl('webhook_url', fields.webhook_url, policy);
    const target = resolveFormat(fields.target_format);
    if (!target) throw await this.unknownTarget(fields.target_format);
    // Before anything is charged or fetched, a repeated request gets its job: by what it asked, as the bytes are not here yet.
    const dedupe = dedupeOf(key, payment.identifier);
    const fingerprint = fingerprintOf(sourceUrl, target.id, fields);
    const existing = dedupe && (await this.jobs.repeatedJob('x402', dedupe, fingerprint));
    if (existing) return { job: existing, created: false };

    const place = this.sources.reserve();
    const slot = this.jobs.inputSlot();
    let charge: OnceCharge | undefined;
    let started: StartedConversion | undefined;
    try {
      charge = onceCharge(await payment.collect(this.config.prices.jobAtomic, slot.jobId));
      const file = await place.toStorage(sourceUrl, slot.storageKey, MAX_UPLOAD_BYTES);
      const taken = charge;
      started = await this.jobs.start({
        origin: 'x402',
        input: { filename: fields.filename ?? file.filename, sizeBytes: file.size, sha256: file.sha256, createdAt: new Date(), head: file.head },
        bytes: { slot },
        target: target.id,
        options: fields.options,
        delivery: 'bundle',
        retentionMs: JOB_RETENTION_MS,
        dedupe,
        fingerprint,
        charge: async () => taken,
        ...(webhookUrl ? { webhookUrl, serviceUrl } : {}),
      });
      return started;
    } catch (error) {
      await charge?.release(releaseReasonOf(error));
      throw error;
    } finally {
      place.release();
      if (!started?.created) {
        // An identical request created the job meanwhile: this one is answered with it, and its payment is not taken.
        await charge?.release('repeated_request');
        await this.storage.delete(slot.storageKey);
      }
    }
  }

  /** A misspelt target: every target id, since the file is not here yet to narrow them (GET /formats has the pairs). */
  private async unknownTarget(asked: string): Promise<RequestValidationError> {
    const { targets } = await this.detection.validTargets({ filename: '', sizeBytes: 0, header: new Uint8Array() });
    return new RequestValidationError([{ field: 'target_format', message: `"${asked}" is not a known output format; the targets are ${targets.join(', ')}` }], {
      source_format: null,
      valid_targets: targets,
    });
  }
}

/** A collected payment as the core's charge: released at most once, and never once its settlement has begun. */
interface OnceCharge extends JobCharge {
  release(reason: string): Promise<void>;
}

function onceCharge(payment: CollectedPayment): OnceCharge {
  let closed = false;
  return {
    settle: () => {
      closed = true;
      return payment.settle();
    },
    release: async (reason) => {
      if (closed) return;
      closed = true;
      await payment.release(reason);
    },
  };
}

/** What a URL request asked, for its Idempotency-Key or payment identifier: never equal to an upload's fingerprint. */
function fingerprintOf(sourceUrl: string, target: string, fields: CreateConversionJobFromUrl): string {
  return createHash('sha256')
    .update(JSON.stringify(['source_url', sourceUrl, target, fields.filename ?? null, canonicalOptions(fields.options ?? {}), fields.webhook_url ?? null]))
    .digest('hex');
}
