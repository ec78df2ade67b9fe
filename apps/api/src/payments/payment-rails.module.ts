import { Module } from '@nestjs/common';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import { createPaymentRails } from './create-payment-rails.js';
import { PaymentLedgerModule } from './payment-ledger.module.js';
import { PaymentRails } from './payment-rails.js';

/** The payment rails (networks, facilitator, dev chain) and the payment ledger. */
@Module({
  imports: [PaymentLedgerModule],
  providers: [{ provide: PaymentRails, inject: [APP_CONFIG], useFactory: (config: AppConfig) => createPaymentRails(config.payments) }],
  exports: [PaymentRails, PaymentLedgerModule],
})
export class PaymentRailsModule {}
