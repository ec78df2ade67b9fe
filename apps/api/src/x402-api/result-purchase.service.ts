import { Inject, Injectable, Logger } from '@nestjs/common';
import { AFTER_SETTLEMENT_RETRIES, withRetries } from '@fileshift/retry';
import type { PaymentReceipt, RoutePayment } from '@fileshift/x402-nest';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import { PaymentLedgerRepository } from '../payments/payment-ledger.repository.js';
import { ReceiptSigner } from '../payments/receipts/receipt-signer.js';
import { price, resultTierFor } from '../payments/pricing.js';
import type { ConversionJob } from '../conversion-jobs/conversion-job.entity.js';
import { ConversionJobs } from '../conversion-jobs/conversion-jobs.service.js';
import type { ResultFile } from '../conversion-jobs/result-files.js';
import { newDownloadToken } from '../http-kit/download-name.js';
import { JobError, JobErrorCode } from './job.error.js';
import { JobLookup } from './job-lookup.service.js';
import { PURCHASE_RESULT_OPERATION } from '../payments/paid-operations.js';
import type { ResultPurchase } from './result-purchase.entity.js';
import { ResultPurchases } from './result-purchases.repository.js';
import type { PurchasedConversionResult } from './result.schemas.js';
import { deliveryRecordPayload } from './delivery-record.js';

export const DOWNLOAD_VALIDITY_MS = 3600 * 1000;

/** Selling a finished result once, and handing out download URLs for it. */
@Injectable()
export class ResultPurchaseService {
  private readonly logger = new Logger(ResultPurchaseService.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly lookup: JobLookup,
    private readonly jobs: ConversionJobs,
    private readonly purchases: ResultPurchases,
    private readonly ledger: PaymentLedgerRepository,
    private readonly signer: ReceiptSigner,
  ) {}

  async purchase(jobId: string, payment: RoutePayment, baseUrl: string): Promise<PurchasedConversionResult> {
    const job = await this.lookup.live(jobId);
    const purchase = await this.purchases.find(job.id);
    // Bought before: the URL again, free.
    if (purchase?.state === 'paid') return this.deliver(job, purchase, baseUrl);
    // Nothing is sold that cannot be delivered: refused before the challenge.
    const priceAtomic = await this.priceOf(job, purchase);
    const paid = await payment.collect(priceAtomic, job.id);
    // Only one purchase of a result settles; the others are told to come back for the URL.
    if (!(await this.purchases.claim(job.id))) {
      await paid.release('purchase_in_progress');
      throw inProgress();
    }
    let receipt: PaymentReceipt;
    try {
      receipt = await paid.settle();
    } catch (error) {
      await this.purchases.release(job.id);
      throw error;
    }
    return this.deliver(job, null, baseUrl, receipt);
  }

  /** 409 or 410 unless the job is done and its result still stored; the price of the result otherwise. */
  private async priceOf(job: ConversionJob, purchase: ResultPurchase | null): Promise<number> {
    if (job.status === 'failed') throw new JobError(JobErrorCode.ConversionFailed, 'The conversion failed; there is no result to buy.', { failure_type: job.failureType });
    if (job.status !== 'done') throw new JobError(JobErrorCode.ResultNotReady, 'The conversion is not finished yet; poll the status URL.');
    if (purchase?.state === 'buying') throw inProgress();
    if (!(await this.jobs.resultStored(this.soldFile(job)))) throw new JobError(JobErrorCode.ResultMissing, 'The result is no longer stored; nothing was charged.');
    return resultTierFor(job.inputSizeBytes, this.config.prices).atomic;
  }

  /**
   * Marks the result paid (after settlement: retried through a short outage, the money moved) or renews
   * an expired download URL, and describes it with the payment's receipt: the one just settled, or for a
   * later call the one in the ledger.
   */
  private async deliver(job: ConversionJob, purchase: ResultPurchase | null, baseUrl: string, settled?: PaymentReceipt): Promise<PurchasedConversionResult> {
    const receipt = settled ?? (await this.ledger.settledReceipt(PURCHASE_RESULT_OPERATION, job.id));
    let token = purchase?.downloadToken;
    let expiresAt = purchase?.downloadExpiresAt;
    if (!token || !expiresAt || expiresAt.getTime() <= Date.now()) {
      token = newDownloadToken();
      expiresAt = new Date(Math.min(Date.now() + DOWNLOAD_VALIDITY_MS, job.expiresAt.getTime()));
    }
    const delivered = this.soldFile(job);
    const deliveryRecord = purchase?.deliveryRecord ?? (await this.signDeliveryRecord(job, delivered, receipt, baseUrl));
    const kept = await withRetries(() => this.purchases.markPaid(job.id, { token, expiresAt, deliveryRecord }), {
      ...(settled ? AFTER_SETTLEMENT_RETRIES : { attempts: 1, firstDelayMs: 0, maxDelayMs: 0 }),
      onRetry: (error) => this.logger.warn(`recording the purchase of job ${job.id} failed; retrying: ${String(error)}`),
    });
    return {
      job_id: job.id,
      status: 'paid',
      download_url: `${baseUrl}/api/x402/v1/download/${token}.${delivered.extension}`,
      filename: delivered.filename,
      mime_type: delivered.mimeType,
      result_size_bytes: job.resultSizeBytes ?? 0,
      ...(kept ? { delivery_record: kept } : {}),
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

  /** The signed record of what this sale delivers; null without a settled payment or a manifest of the run. */
  private async signDeliveryRecord(job: ConversionJob, sold: ResultFile, receipt: PaymentReceipt | undefined, baseUrl: string): Promise<string | null> {
    const resourceUrl = `${baseUrl}/api/x402/v1/convert-file/${job.id}/result`;
    const payload = receipt && deliveryRecordPayload(job, sold, receipt, resourceUrl);
    return payload ? this.signer.signRecord(payload, resourceUrl) : null;
  }

  /** What the x402 API sells of a result: its one file (a ZIP when the conversion wrote several: the job's delivery is a bundle). */
  private soldFile(job: ConversionJob): ResultFile {
    return this.jobs.resultFiles(job)[0]!;
  }
}

const inProgress = () => new JobError(JobErrorCode.PurchaseInProgress, 'Another purchase of this result is being settled; retry to receive the download URL.');
