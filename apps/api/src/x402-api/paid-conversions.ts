import { Inject, Injectable } from '@nestjs/common';
import { resolveFormat } from '@fileshift/formats';
import type { RoutePayment } from '@fileshift/x402-nest';
import { parsedOptionsField } from '../conversion-requests/conversion-choice.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import { ConversionJobs, type Dedupe, type InputSlot, joinedInput, type MemberInput, type StartedConversion } from '../conversion-jobs/conversion-jobs.service.js';
import { DetectionService } from '../detection/detection.service.js';
import { RequestValidationError, validated } from '../errors/request-validation.error.js';
import type { Upload } from '../http-kit/upload-reader.js';
import { checkedCallerUrl } from '../outbound/caller-url.js';
import { CreateConversionJobFieldsSchema, IdempotencyKeySchema } from './convert-file.schemas.js';

/** The dedupe key a payment identifier makes: the space keeps it apart from every Idempotency-Key (printable, no space). */
export const PAYMENT_IDENTIFIER_KEY_PREFIX = 'payment-identifier ';

/** x402 jobs are kept (details, input and result) this long after creation. */
export const JOB_RETENTION_MS = 24 * 3600 * 1000;

/**
 * POST /api/x402/v1/convert-file in the core's terms: the multipart fields checked, the target resolved, the
 * Idempotency-Key as the dedupe key (else the payment's identifier), the job fee as the charge, and a result of
 * several files sold as one ZIP.
 */
@Injectable()
export class PaidConversions {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly jobs: ConversionJobs,
    private readonly detection: DetectionService,
  ) {}

  /**
   * `upload` is stored in `slot`; when no new job took it (refused, or an existing job was answered) the caller discards it.
   * `serviceUrl`: the address the request reached (its webhook's event links to it and names its did:web key).
   */
  async start(slot: InputSlot, upload: Upload, idempotencyKey: string | undefined, payment: RoutePayment, serviceUrl: string): Promise<StartedConversion> {
    const key = validated(IdempotencyKeySchema, idempotencyKey);
    const fields = validated(CreateConversionJobFieldsSchema, upload.fields);
    const webhookUrl = fields.webhook_url === undefined ? undefined : checkedCallerUrl('webhook_url', fields.webhook_url, this.config.outbound.policy);
    if (!upload.file) throw RequestValidationError.of('file', 'the multipart part "file" is missing');
    const arrived = upload.files.reduce((total, file) => total + file.size, 0);
    if (arrived !== fields.size_bytes) throw RequestValidationError.of('size_bytes', `is ${fields.size_bytes} but ${arrived} bytes arrived${upload.files.length > 1 ? ` in ${upload.files.length} files` : ''}`);
    const createdAt = new Date(fields.created_at);
    const members = upload.files.length > 1 ? membersOf(upload, createdAt) : undefined;
    const input = members ? joinedInput(fields.filename, createdAt, members) : { filename: fields.filename, sizeBytes: upload.file.size, sha256: upload.file.sha256, createdAt, head: upload.file.head };
    const target = resolveFormat(fields.target_format);
    if (!target) {
      // The client may have misspelt it: tell it what it could ask for instead (GET /formats has the rest).
      const { source, targets } = await this.detection.validTargets({ ...input, header: input.head });
      const among = source ? `${source} converts to` : 'the targets are';
      throw new RequestValidationError([{ field: 'target_format', message: `"${fields.target_format}" is not a known output format; ${among} ${targets.join(', ')}` }], {
        source_format: source,
        valid_targets: targets,
      });
    }
    return this.jobs.start({
      origin: 'x402',
      input,
      bytes: { slot },
      ...(members ? { members } : {}),
      target: target.id,
      options: parsedOptionsField(fields.options),
      delivery: 'bundle',
      retentionMs: JOB_RETENTION_MS,
      dedupe: dedupeOf(key, payment.identifier),
      charge: (jobId) => payment.collect(this.config.prices.jobAtomic, jobId),
      ...(webhookUrl ? { webhookUrl, serviceUrl } : {}),
    });
  }
}

/** The files of an upload of several, in order, each named by its part's file name (else file-<n>); the empty one refused, named. */
function membersOf(upload: Upload, createdAt: Date): MemberInput[] {
  return upload.files.map((file, index) => {
    const filename = file.clientFilename || `file-${index + 1}`;
    if (file.size === 0) throw RequestValidationError.of('file', `file ${index + 1} (${filename}) is empty`);
    return { input: { filename, sizeBytes: file.size, sha256: file.sha256, createdAt, head: file.head } };
  });
}

/**
 * How a repeated upload finds its job before anything is charged: by its Idempotency-Key, else by its payment's
 * identifier (x402 `payment-identifier`, scoped by payer): the gate cannot compare multipart requests itself.
 */
export function dedupeOf(idempotencyKey: string | undefined, paymentIdentifier: string | undefined): (Dedupe & { clientKey: string }) | undefined {
  if (idempotencyKey) return { clientKey: idempotencyKey };
  return paymentIdentifier ? { clientKey: `${PAYMENT_IDENTIFIER_KEY_PREFIX}${paymentIdentifier}` } : undefined;
}
