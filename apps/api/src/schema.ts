import type { DatabaseSchema } from './database/data-source-options.js';
import { ApiKey } from './api-keys/api-key.entity.js';
import { DeploymentIdentity } from './deployment/deployment-identity.entity.js';
import { ConversionJob } from './conversion-jobs/conversion-job.entity.js';
import { JobTombstone } from './conversion-jobs/job-tombstone.entity.js';
import { JobLeaseRecord } from './conversion-jobs/worker/job-lease.entity.js';
import { KeyApiConversion } from './key-api/key-api-conversion.entity.js';
import { KeyApiUpload } from './key-api/key-api-upload.entity.js';
import { PaymentRecord } from './payments/payment-record.entity.js';
import { ResultPurchase } from './x402-api/result-purchase.entity.js';
import { WebhookDelivery } from './webhooks/webhook-delivery.entity.js';
import { CreatePaymentRecords1763800000000 } from './database/migrations/1763800000000-create-payment-records.js';
import { CreateConversionJobs1763900000000 } from './database/migrations/1763900000000-create-conversion-jobs.js';
import { CreateKeyApiTables1764000000000 } from './database/migrations/1764000000000-create-key-api-tables.js';
import { JobLeasesAndDeployment1764100000000 } from './database/migrations/1764100000000-job-leases-and-deployment.js';
import { ConversionPlans1764200000000 } from './database/migrations/1764200000000-conversion-plans.js';
import { JobRecordsApart1764300000000 } from './database/migrations/1764300000000-job-records-apart.js';
import { PaymentIdentifiers1764400000000 } from './database/migrations/1764400000000-payment-identifiers.js';
import { DeliveryRecords1764500000000 } from './database/migrations/1764500000000-delivery-records.js';
import { WebhookDeliveries1764600000000 } from './database/migrations/1764600000000-webhook-deliveries.js';
import { JobJoins1764700000000 } from './database/migrations/1764700000000-job-joins.js';

/** The tables of the service and their migrations: explicit lists, identical in src/ and dist/ — no globs. */
export const ENTITIES = [PaymentRecord, ConversionJob, JobTombstone, JobLeaseRecord, ResultPurchase, ApiKey, KeyApiUpload, KeyApiConversion, DeploymentIdentity, WebhookDelivery];
export const MIGRATIONS = [CreatePaymentRecords1763800000000, CreateConversionJobs1763900000000, CreateKeyApiTables1764000000000, JobLeasesAndDeployment1764100000000, ConversionPlans1764200000000, JobRecordsApart1764300000000, PaymentIdentifiers1764400000000, DeliveryRecords1764500000000, WebhookDeliveries1764600000000, JobJoins1764700000000];
export const SCHEMA: DatabaseSchema = { entities: ENTITIES, migrations: MIGRATIONS };
