import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PaymentLedgerModule } from '../payments/payment-ledger.module.js';
import { PurchaseReconciler } from './purchase-reconciler.js';
import { ResultPurchase } from './result-purchase.entity.js';
import { ResultPurchases } from './result-purchases.repository.js';

/** The x402 API's result purchases (HTTP role). */
@Module({
  imports: [TypeOrmModule.forFeature([ResultPurchase])],
  providers: [ResultPurchases],
  exports: [ResultPurchases],
})
export class ResultPurchasesModule {}

/** The reconciler of result purchases (worker role, beside the job reconciler). */
@Module({
  imports: [ResultPurchasesModule, PaymentLedgerModule],
  providers: [PurchaseReconciler],
})
export class PurchaseReconcilerModule {}
