import { Logger, Module } from '@nestjs/common';
import { type PaidRoute, type SettlementOutcome, X402Module } from '@fileshift/x402-nest';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import { ServiceMetrics } from '../metrics/service-metrics.js';
import { bazaarExtensions } from './bazaar-discovery.js';
import { OpenApiDocumentModule, OpenApiDocumentStore } from '../http-kit/openapi-document.store.js';
import { settlementKindOf } from './settlement-kind.js';
import { PaymentLedgerRepository } from './payment-ledger.repository.js';
import { PaymentRails } from './payment-rails.js';
import { PaymentRailsModule } from './payment-rails.module.js';
import { ReceiptSigner } from './receipts/receipt-signer.js';

const logger = new Logger('x402');

/** x402 payments for the HTTP role: the gate every `@Paid` route goes through. */
@Module({
  imports: [
    PaymentRailsModule,
    X402Module.forRootAsync({
      imports: [PaymentRailsModule, OpenApiDocumentModule],
      inject: [APP_CONFIG, PaymentRails, PaymentLedgerRepository, ServiceMetrics, OpenApiDocumentStore, ReceiptSigner],
      useFactory: (config: AppConfig, rails: PaymentRails, ledger: PaymentLedgerRepository, metrics: ServiceMetrics, openApi: OpenApiDocumentStore, signer: ReceiptSigner) => ({
        resourceServer: rails.resourceServer,
        accepts: rails.accepts,
        ledger,
        publicBaseUrl: config.publicBaseUrl,
        onError: (message: string, error: unknown) => logger.error(`${message}: ${error instanceof Error ? error.message : String(error)}`),
        onSettlement: (route: string, outcome: SettlementOutcome) => metrics.settlementEnded(settlementKindOf(route), outcome),
        // Asked at a route's first request, after bootstrap built the document.
        extensionsOf: (route: PaidRoute) => bazaarExtensions(openApi.json(), route.name),
        offerReceipts: signer.issuer,
      }),
    }),
  ],
  exports: [PaymentRailsModule],
})
export class PaymentsModule {}
