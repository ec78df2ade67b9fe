import type { PaymentReceipt } from '@fileshift/x402-nest';
import type { ConversionJob } from '../conversion-jobs/conversion-job.entity.js';
import type { ResultFile } from '../conversion-jobs/result-files.js';

/** What a delivery record's payload says the type of: tells it from an x402 offer or receipt signed by the same key. */
export const DELIVERY_RECORD_TYPE = 'fileshift.delivery-record';

/**
 * Pure: the payload of a sold result's delivery record — what was converted (the input's hash and size), what was
 * delivered (the sold file's hash and size, and each file inside a ZIP of pages), how (each engine and its version),
 * and the payment for it. Undefined for a job whose run kept no manifest (jobs of older versions).
 */
export function deliveryRecordPayload(job: ConversionJob, sold: ResultFile, receipt: PaymentReceipt, resourceUrl: string) {
  const manifest = job.resultManifest;
  const delivered = manifest?.files[0];
  if (!manifest || !delivered) return undefined;
  return {
    version: 1,
    type: DELIVERY_RECORD_TYPE,
    issuedAt: Math.floor(Date.now() / 1000),
    resourceUrl,
    jobId: job.id,
    input: {
      format: job.detectedInputFormat,
      sha256: job.inputSha256,
      sizeBytes: job.inputSizeBytes,
      // A job of several files: each one as it arrived, and the steps it ran before the join (`sha256` above digests theirs).
      ...(job.joinPlan
        ? { files: job.joinPlan.members.map((member, index) => ({ filename: member.filename, format: member.format, sha256: member.sha256, sizeBytes: member.sizeBytes, plan: manifest.members?.[index]?.steps ?? [] })) }
        : {}),
    },
    output: {
      format: job.targetFormat,
      filename: sold.filename,
      mimeType: sold.mimeType,
      sha256: delivered.sha256,
      sizeBytes: delivered.sizeBytes,
      ...(manifest.bundled ? { files: manifest.bundled } : {}),
    },
    plan: manifest.steps,
    ...(manifest.notes ? { notes: manifest.notes } : {}),
    payment: {
      scheme: receipt.scheme,
      network: receipt.network,
      asset: receipt.asset,
      payTo: receipt.payTo,
      amount: receipt.amountAtomic,
      payer: receipt.payer,
      transaction: receipt.txHash,
      settledAt: receipt.settledAt.toISOString(),
    },
  };
}
