import { Module } from '@nestjs/common';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import { ServiceMetrics } from '../metrics/service-metrics.js';
import { createPaymentRails } from './create-payment-rails.js';
import { PaymentLedgerModule } from './payment-ledger.module.js';
import { PaymentRails } from './payment-rails.js';
import { ReceiptSignerModule } from './receipts/receipt-signer.module.js';

/** The payment rails (networks, facilitator, dev chain), the payment ledger, and the key that signs what was paid for. */
@Module({
  imports: [PaymentLedgerModule, ReceiptSignerModule],
  providers: [
    {
      provide: PaymentRails,
      inject: [APP_CONFIG, ServiceMetrics],
      useFactory: (config: AppConfig, metrics: ServiceMetrics) => createPaymentRails(config.payments, (operation, kind) => metrics.facilitatorFailed(operation, kind)),
    },
  ],
  exports: [PaymentRails, ReceiptSignerModule, PaymentLedgerModule],
})
export class PaymentRailsModule {}
