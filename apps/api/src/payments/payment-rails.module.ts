import { Module } from '@nestjs/common';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import { ServiceMetrics } from '../metrics/service-metrics.js';
import { createPaymentRails } from './create-payment-rails.js';
import { PaymentLedgerModule } from './payment-ledger.module.js';
import { PaymentRails } from './payment-rails.js';

/** The payment rails (networks, facilitator, dev chain) and the payment ledger. */
@Module({
  imports: [PaymentLedgerModule],
  providers: [
    {
      provide: PaymentRails,
      inject: [APP_CONFIG, ServiceMetrics],
      useFactory: (config: AppConfig, metrics: ServiceMetrics) => createPaymentRails(config.payments, (operation, kind) => metrics.facilitatorFailed(operation, kind)),
    },
  ],
  exports: [PaymentRails, PaymentLedgerModule],
})
export class PaymentRailsModule {}
