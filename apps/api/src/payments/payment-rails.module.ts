import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import { createPaymentRails } from './create-payment-rails.js';
import { PaymentLedgerRepository } from './payment-ledger.repository.js';
import { PaymentRecord } from './payment-record.entity.js';
import { PaymentRails } from './payment-rails.js';

/** The payment rails (networks, facilitator, dev chain) and the payment ledger. */
@Module({
  imports: [TypeOrmModule.forFeature([PaymentRecord])],
  providers: [
    { provide: PaymentRails, inject: [APP_CONFIG], useFactory: (config: AppConfig) => createPaymentRails(config.payments) },
    PaymentLedgerRepository,
  ],
  exports: [PaymentRails, PaymentLedgerRepository],
})
export class PaymentRailsModule {}
