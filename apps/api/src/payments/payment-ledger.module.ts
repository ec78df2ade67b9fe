import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PaymentLedgerRepository } from './payment-ledger.repository.js';
import { PaymentRecord } from './payment-record.entity.js';

/** The payment ledger alone: the API records payments in it; the workers' reconciler reads what was settled. */
@Module({
  imports: [TypeOrmModule.forFeature([PaymentRecord])],
  providers: [PaymentLedgerRepository],
  exports: [PaymentLedgerRepository],
})
export class PaymentLedgerModule {}
