import { Module } from '@nestjs/common';
import { JOB_SALES } from '../conversion-jobs/conversion-jobs.module.js';
import { PaymentLedgerModule } from '../payments/payment-ledger.module.js';
import { PurchaseReconciler } from './purchase-reconciler.js';
import { ResultPurchasesModule } from './result-purchases.module.js';
import { X402JobSales } from './x402-job-sales.js';

/** The x402 API's implementation of the core's JobSales port (worker role: the composition root hands it to the worker). */
@Module({
  imports: [ResultPurchasesModule, PaymentLedgerModule],
  providers: [PurchaseReconciler, X402JobSales, { provide: JOB_SALES, useExisting: X402JobSales }],
  exports: [JOB_SALES],
})
export class JobSalesModule {}
