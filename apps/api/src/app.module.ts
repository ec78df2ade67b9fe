import { type DynamicModule, Module, type ModuleMetadata } from '@nestjs/common';
import type { AppConfig } from './config/app-config.js';
import { ConfigModule } from './config/config.module.js';
import { DatabaseModule } from './database/database.module.js';
import { DeploymentModule } from './deployment/deployment.module.js';
import { DetectionModule } from './detection/detection.module.js';
import { DiscoveryModule } from './discovery/discovery.module.js';
import { HealthModule } from './health/health.module.js';
import { JobSalesModule } from './x402-api/job-sales.module.js';
import { X402ApiModule } from './x402-api/x402-api.module.js';
import { KeyApiModule } from './key-api/key-api.module.js';
import { McpEndpointModule } from './mcp-endpoint/mcp-endpoint.module.js';
import { KeyApiRecordsModule } from './key-api/key-api-records.module.js';
import { MetricsModule } from './metrics/metrics.module.js';
import { PaymentsModule } from './payments/payments.module.js';
import { ReceiptSignerModule } from './payments/receipts/receipt-signer.module.js';
import { QueueModule } from './queue/queue.module.js';
import { WorkerModule } from './worker.module.js';
import { SCHEMA } from './schema.js';
import { RateLimitModule } from './rate-limit/rate-limit.module.js';
import { StorageModule } from './storage/storage.module.js';

/**
 * The composition root: the modules a process loads depend on its ROLE (HTTP only, workers only, or both), and the
 * worker gets what it needs of the APIs here, as modules that provide its ports (the x402 API's JobSales, the key API's
 * expiring uploads, the signing key of webhook events).
 */
@Module({})
export class AppModule {
  static forRole(config: AppConfig): DynamicModule {
    const serves = config.role === 'api' || config.role === 'all';
    const works = config.role === 'worker' || config.role === 'all';
    const imports: ModuleMetadata['imports'] = [ConfigModule.forRoot(config), DatabaseModule.forSchema(SCHEMA), DeploymentModule, QueueModule, StorageModule, MetricsModule.forConfig(config)];
    if (serves) imports.push(RateLimitModule, PaymentsModule, DiscoveryModule, HealthModule, DetectionModule, X402ApiModule, McpEndpointModule, KeyApiModule);
    if (works) imports.push(WorkerModule.forConfig(config, { jobSales: JobSalesModule, expiringUploads: KeyApiRecordsModule, webhookSigner: ReceiptSignerModule }));
    return { module: AppModule, imports };
  }
}
