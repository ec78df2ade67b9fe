import { Module } from '@nestjs/common';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import { ServiceMetrics } from '../metrics/service-metrics.js';
import { createPaymentRails } from './create-payment-rails.js';
import { PaymentLedgerModule } from './payment-ledger.module.js';
import { PaymentRails } from './payment-rails.js';
import { ReceiptSigner } from './receipts/receipt-signer.js';
import { loadSigningKey } from './receipts/signing-key.js';

/** The payment rails (networks, facilitator, dev chain), the payment ledger, and the key that signs what was paid for. */
@Module({
  imports: [PaymentLedgerModule],
  providers: [
    {
      provide: PaymentRails,
      inject: [APP_CONFIG, ServiceMetrics],
      useFactory: (config: AppConfig, metrics: ServiceMetrics) => createPaymentRails(config.payments, (operation, kind) => metrics.facilitatorFailed(operation, kind)),
    },
    {
      provide: ReceiptSigner,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new ReceiptSigner(loadSigningKey(config.payments.receiptSigningKey), config.publicBaseUrl),
    },
  ],
  exports: [PaymentRails, ReceiptSigner, PaymentLedgerModule],
})
export class PaymentRailsModule {}
