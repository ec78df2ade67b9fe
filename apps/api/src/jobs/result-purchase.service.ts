import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { suggestFilename } from '@fileshift/detection';
import { getFormat, mimeTypeOf } from '@fileshift/formats';
import type { PaymentReceipt } from '@fileshift/x402-nest';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import { ApiErrorCode, ApiErrorException } from '../http/api-error.exception.js';
import { PaymentLedgerRepository } from '../payments/payment-ledger.repository.js';
import { price, resultTierFor } from '../payments/pricing.js';
import type { ConversionJob } from './conversion-job.entity.js';
import { ConversionJobsRepository } from './conversion-jobs.repository.js';
import type { PurchasedConversionResult } from './result.schemas.js';

export const DOWNLOAD_VALIDITY_MS = 3600 * 1000;
/** The paid operation's name: the ledger records the result's payment under it. */
export const PURCHASE_RESULT_OPERATION = 'purchaseConversionResult';

/** Selling a finished result once, and handing out download URLs for it. */
@Injectable()
export class ResultPurchaseService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly jobs: ConversionJobsRepository,
    private readonly ledger: PaymentLedgerRepository,
  ) {}

  /** 409 unless the job is done; the price of its result otherwise. */
  priceOf(job: ConversionJob): number {
    if (job.status === 'failed') throw new ApiErrorException(409, 'conversion_failed', 'The conversion failed; there is no result to buy.', { failure_type: job.failureType });
    if (job.status !== 'done') throw new ApiErrorException(409, 'result_not_ready', 'The conversion is not finished yet; poll the status URL.');
    return resultTierFor(job.inputSizeBytes, this.config.prices).atomic;
  }

  /** Runs once the payment is verified: only one purchase of a job may proceed to settlement. */
  async claim(job: ConversionJob): Promise<ConversionJob> {
    if (!(await this.jobs.claimPurchase(job.id))) {
      throw new ApiErrorException(409, ApiErrorCode.Conflict, 'Another purchase of this result is being settled or is done; retry to receive the download URL.');
    }
    return job;
  }

  async release(job: ConversionJob): Promise<void> {
    await this.jobs.update(job.id, { resultPurchase: null });
  }

  /**
   * Marks the result paid (after settlement) or renews an expired download URL, and describes it with
   * the payment's receipt: the one just settled, or for a later call the one in the ledger.
   */
  async deliver(job: ConversionJob, baseUrl: string, settled?: PaymentReceipt): Promise<PurchasedConversionResult> {
    const receipt = settled ?? (await this.ledger.settledReceipt(PURCHASE_RESULT_OPERATION, job.id));
    let token = job.downloadToken;
    let expiresAt = job.downloadExpiresAt;
    if (!token || !expiresAt || expiresAt.getTime() <= Date.now()) {
      token = randomBytes(24).toString('base64url');
      expiresAt = new Date(Math.min(Date.now() + DOWNLOAD_VALIDITY_MS, job.expiresAt.getTime()));
    }
    await this.jobs.update(job.id, { resultPurchase: 'paid', downloadToken: token, downloadExpiresAt: expiresAt });
    return {
      job_id: job.id,
      status: 'paid',
      download_url: `${baseUrl}/api/x402/v1/download/${token}.${job.targetFormat}`,
      filename: resultFilename(job),
      mime_type: mimeTypeOf(job.targetFormat),
      result_size_bytes: job.resultSizeBytes ?? 0,
      ...(receipt
        ? {
            payment: {
              protocol: 'x402' as const,
              scheme: 'exact' as const,
              network: receipt.network,
              amount: price(Number(receipt.amountAtomic), receipt.network),
              tx_hash: receipt.txHash,
              settled_at: receipt.settledAt.toISOString(),
            },
          }
        : {}),
    };
  }
}

export function resultFilename(job: Pick<ConversionJob, 'originalFilename' | 'targetFormat'>): string {
  return suggestFilename(job.originalFilename, getFormat(job.targetFormat)!);
}
