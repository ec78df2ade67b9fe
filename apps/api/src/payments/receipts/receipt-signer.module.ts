import { Module } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/app-config.token.js';
import { ReceiptSigner } from './receipt-signer.js';
import { loadSigningKey } from './signing-key.js';
import { WEBHOOK_SIGNER } from '../../webhooks/webhook-signer.port.js';

/** The service's one signing key (the did:web key of /.well-known/did.json): for the APIs' receipts and the workers' webhook events. */
@Module({
  providers: [
    {
      provide: ReceiptSigner,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new ReceiptSigner(loadSigningKey(config.payments.receiptSigningKey), config.publicBaseUrl),
    },
    { provide: WEBHOOK_SIGNER, useExisting: ReceiptSigner },
  ],
  exports: [ReceiptSigner, WEBHOOK_SIGNER],
})
export class ReceiptSignerModule {}
