import { Injectable } from '@nestjs/common';
import type { JobSales, UnchargedJobRepair } from '../conversion-jobs/conversion-jobs.module.js';
import { CREATE_JOB_OPERATION } from '../payments/paid-operations.js';
import { PaymentLedgerRepository } from '../payments/payment-ledger.repository.js';
import { repairUnsettled, SETTLE_WINDOW_SECONDS } from '../payments/settlement-repair.js';
import { PurchaseReconciler } from './purchase-reconciler.js';

/** The x402 API's side of the JobSales port: its jobs are paid under createConversionJob, its results bought apart. */
@Injectable()
export class X402JobSales implements JobSales {
  readonly creationPaymentEntry = CREATE_JOB_OPERATION;

  constructor(
    private readonly ledger: PaymentLedgerRepository,
    private readonly purchases: PurchaseReconciler,
  ) {}

  async repairUncharged(jobId: string, ageSeconds: number): Promise<UnchargedJobRepair> {
    return repairUnsettled(await this.ledger.outcomeFor(CREATE_JOB_OPERATION, jobId), ageSeconds, SETTLE_WINDOW_SECONDS);
  }

  reconcileSoldResults(): Promise<void> {
    return this.purchases.pass();
  }
}
