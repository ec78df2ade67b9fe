import { join, resolve } from 'node:path';
import { defaultLibreOfficePoolSize, type EngineClass, SANDBOX_SETTINGS, type SandboxSetting } from '@fileshift/converters';
import { type OutboundPolicy, outboundPolicyFromEnv } from '@fileshift/outbound';
import { z } from 'zod';
import type { KeyApiLimits } from './key-api-limits.js';
import { MAX_UPLOAD_BYTES } from './upload-limit.js';
import { parseSigningKey } from './parse-signing-key.js';
import { PAYMENTS_MODES, type PaymentMode, type PaymentModeSource, paymentModeProblems, resolvePaymentMode } from './payments-mode.js';

export type { PaymentMode, PaymentModeSource } from './payments-mode.js';

export const ROLES = ['api', 'worker', 'all'] as const;
export type Role = (typeof ROLES)[number];
export const STORAGE_DRIVERS = ['local', 's3'] as const;
export type StorageDriver = (typeof STORAGE_DRIVERS)[number];
const S3_REQUIRED = ['S3_BUCKET', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;
const S3_VARIABLES = ['S3_ENDPOINT', ...S3_REQUIRED, 'S3_FORCE_PATH_STYLE', 'S3_KEY_PREFIX'] as const;
/** Variables whose values a configuration problem never repeats. */
const SECRET_VARIABLES = new Set(['S3_SECRET_ACCESS_KEY', 'FACILITATOR_AUTH_HEADERS', 'METRICS_TOKEN', 'RECEIPT_SIGNING_KEY']);

const port = z.coerce.number().int().min(0).max(65535);
export const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
export const SOLANA_MAINNET = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp';
export const SOLANA_USDC_MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

const caip2 = z.string().regex(/^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/, 'must be a CAIP-2 network id such as eip155:8453');
const ed25519PrivateKey = z.string().superRefine((text, context) => {
  try {
    parseSigningKey(text);
  } catch (error) {
    context.addIssue({ code: 'custom', message: (error as Error).message });
  }
});
const jsonHeaders = z.string().transform((text, context) => {
  try {
    const value = JSON.parse(text) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value) && Object.values(value).every((v) => typeof v === 'string')) {
      return value as Record<string, string>;
    }
  } catch {
    // reported below
  }
  context.addIssue({ code: 'custom', message: 'must be a JSON object of header names to string values' });
  return z.NEVER;
});
const count = z.coerce.number().int().min(1).max(1_000_000_000);
const uploadBytes = z.coerce.number().int().min(1).max(MAX_UPLOAD_BYTES);
const atomicUnits = z.coerce.number().int().min(0).max(1_000_000_000);
const flag = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');
const url = (protocols: string[]) =>
  z
    .string()
    .url()
    .refine((value) => protocols.includes(new URL(value).protocol), {
      message: `must start with ${protocols.map((p) => `${p}//`).join(' or ')}`,
    });

/** Every environment variable the service reads. docs/configuration.md mirrors it. */
export const environmentSchema = z.object({
  /** Read for one rule only: `production` refuses dev payments. */
  NODE_ENV: z.string().min(1).optional(),
  ROLE: z.enum(ROLES).default('all'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: port.default(3000),
  PUBLIC_BASE_URL: url(['http:', 'https:']).optional(),
  CORS_ALLOWED_ORIGINS: z
    .string()
    .regex(/^(\*|https?:\/\/[^\s,]+(,https?:\/\/[^\s,]+)*)$/, 'must be * or origins (scheme://host[:port]) separated by commas')
    .default('*'),
  DATABASE_URL: url(['postgres:', 'postgresql:']).optional(),
  DATA_DIR: z.string().min(1).default('.data'),
  SCRATCH_DIR: z.string().min(1).optional(),
  STORAGE_DRIVER: z.enum(STORAGE_DRIVERS).default('local'),
  S3_ENDPOINT: url(['http:', 'https:']).optional(),
  S3_REGION: z.string().regex(/^[a-z0-9-]{2,40}$/, 'must be a region name such as us-east-1').optional(),
  S3_BUCKET: z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name (3-63 lower-case letters, digits, "." or "-")').optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: flag.default(false),
  S3_KEY_PREFIX: z.string().regex(/^[A-Za-z0-9_-]+(\/[A-Za-z0-9_.-]+)*$/, 'must be path segments separated by "/", without a leading or trailing "/"').optional(),
  REDIS_URL: url(['redis:', 'rediss:']).default('redis://127.0.0.1:6379'),
  QUEUE_PREFIX: z.string().regex(/^[A-Za-z0-9:_-]{1,64}$/, 'letters, digits, ":", "_" or "-" only').default('fileshift'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  JSON_BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1000).default(30_000),
  PRICE_DETECT_ATOMIC: atomicUnits.default(2000),
  PRICE_JOB_ATOMIC: atomicUnits.default(2000),
  PRICE_RESULT_STANDARD_ATOMIC: atomicUnits.default(20_000),
  PRICE_RESULT_LARGE_ATOMIC: atomicUnits.default(40_000),
  PAYMENTS_MODE: z.enum(PAYMENTS_MODES).optional(),
  FACILITATOR_URL: url(['http:', 'https:']).optional(),
  FACILITATOR_AUTH_HEADERS: jsonHeaders.optional(),
  X402_EVM_NETWORK: caip2.default('eip155:8453'),
  X402_EVM_ASSET: z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x token address').default(BASE_USDC),
  X402_EVM_ASSET_NAME: z.string().min(1).default('USD Coin'),
  X402_EVM_ASSET_VERSION: z.string().min(1).default('2'),
  X402_EVM_PAY_TO: z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x address').optional(),
  X402_SVM_NETWORK: caip2.default(SOLANA_MAINNET),
  X402_SVM_ASSET: z.string().min(32).max(44).default(SOLANA_USDC_MINT),
  X402_SVM_PAY_TO: z.string().regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, 'must be a base58 Solana address').optional(),
  X402_MAX_TIMEOUT_SECONDS: z.coerce.number().int().min(10).max(3600).default(300),
  DEVCHAIN_RPC_URL: url(['http:', 'https:']).optional(),
  DEVCHAIN_SOLANA_RPC_URL: url(['http:', 'https:']).optional(),
  RECEIPT_SIGNING_KEY: ed25519PrivateKey.optional(),
  X402_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(120),
  X402_STATUS_MAX_WAITING: z.coerce.number().int().min(0).default(10_000),
  KEY_API_ANONYMOUS_REQUESTS_PER_MINUTE: count.default(10),
  KEY_API_ANONYMOUS_DAILY_QUOTA: count.default(100),
  KEY_API_ANONYMOUS_MAX_UPLOAD_BYTES: uploadBytes.default(5 * 1024 * 1024),
  KEY_API_DEFAULT_REQUESTS_PER_MINUTE: count.default(120),
  KEY_API_DEFAULT_DAILY_QUOTA: count.default(10_000),
  KEY_API_DEFAULT_MAX_UPLOAD_BYTES: uploadBytes.default(MAX_UPLOAD_BYTES),
  KEY_API_CONVERT_WAIT_SECONDS: z.coerce.number().int().min(1).max(600).default(120),
  WORKER_QUEUES: z
    .string()
    .regex(/^(documents|media|images)(,(documents|media|images))*$/, 'a comma-separated list of documents, media, images')
    .default('documents,media,images'),
  WORKER_CONCURRENCY_DOCUMENTS: z.coerce.number().int().min(1).max(64).optional(),
  WORKER_CONCURRENCY_MEDIA: z.coerce.number().int().min(1).max(64).default(2),
  WORKER_CONCURRENCY_IMAGES: z.coerce.number().int().min(1).max(64).default(2),
  ENGINE_SANDBOX: z
    .enum(SANDBOX_SETTINGS, { message: 'must be required (the default: every engine in a sandbox, or the worker does not start) or off (engines without a sandbox, by choice)' })
    .default('required'),
  LIBREOFFICE_POOL_SIZE: z.coerce.number().int().min(1).max(32).optional(),
  LIBREOFFICE_MAX_CONVERSIONS: z.coerce.number().int().min(1).max(100_000).default(200),
  JOB_LEASE_SECONDS: z.coerce.number().int().min(5).max(600).default(30),
  JOB_RECONCILE_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(3600).default(15),
  JOB_DEADLINE_MINUTES: z.coerce.number().int().min(5).max(1440).default(60),
  METRICS_TOKEN: z.string().regex(/^[\x21-\x7e]{16,256}$/, 'must be 16 to 256 printable characters without spaces').optional(),
  METRICS_PORT: port.default(9464),
  OUTBOUND_ALLOW_HOSTS: z.string().optional(),
  OUTBOUND_DENY_HOSTS: z.string().optional(),
  OUTBOUND_ALLOW_PORTS: z.string().optional(),
  SOURCE_URL_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(600).default(60),
  SOURCE_URL_IDLE_SECONDS: z.coerce.number().int().min(1).max(300).default(15),
  SOURCE_URL_MAX_CONCURRENT: z.coerce.number().int().min(1).max(1000).default(16),
  WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(30).default(8),
  WEBHOOK_RETRY_BASE_SECONDS: z.coerce.number().min(0.1).max(3600).default(30),
  WEBHOOK_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(120).default(10),
  /** Test-only fault injection (dev payments only): hold each paid job this long between settlement and its enqueue. */
  FAULT_PAUSE_BEFORE_ENQUEUE_MS: z.coerce.number().int().min(1).max(600_000).optional(),
}).superRefine((env, context) => {
  checkStorage(env, context);
  for (const problem of paymentModeProblems(env)) context.addIssue({ code: 'custom', path: [problem.variable], message: problem.message });
  checkOutbound(env, context);
});

export type Environment = z.infer<typeof environmentSchema>;

/** With STORAGE_DRIVER=s3 the bucket, region and credentials are needed; S3 settings under the local driver are a forgotten STORAGE_DRIVER. */
function checkStorage(env: { STORAGE_DRIVER: StorageDriver } & Partial<Record<(typeof S3_VARIABLES)[number], unknown>>, context: z.RefinementCtx): void {
  if (env.STORAGE_DRIVER === 's3') {
    for (const name of S3_REQUIRED) {
      if (env[name] === undefined) context.addIssue({ code: 'custom', path: [name], message: 'is required with STORAGE_DRIVER=s3' });
    }
    return;
  }
  const set = S3_VARIABLES.filter((name) => name !== 'S3_FORCE_PATH_STYLE' && env[name] !== undefined);
  if (set.length > 0) {
    context.addIssue({ code: 'custom', path: ['STORAGE_DRIVER'], message: `${set.join(', ')} only apply with STORAGE_DRIVER=s3; files would stay on the local disk` });
  }
}

/** An outbound setting the guard cannot read stops the service at start-up, naming the variable and the entry. */
function checkOutbound(env: Partial<Record<'OUTBOUND_ALLOW_HOSTS' | 'OUTBOUND_DENY_HOSTS' | 'OUTBOUND_ALLOW_PORTS', string>>, context: z.RefinementCtx): void {
  try {
    outboundPolicyFromEnv(env);
  } catch (error) {
    const message = (error as Error).message;
    const variable = message.split(':')[0] ?? 'OUTBOUND_ALLOW_HOSTS';
    context.addIssue({ code: 'custom', path: [variable], message: message.slice(variable.length + 2) });
  }
}

export interface AppConfig {
  role: Role;
  host: string;
  port: number;
  publicBaseUrl?: string;
  /** Web pages allowed to call the APIs (CORS): any, or these exact origins. */
  corsAllowedOrigins: '*' | string[];
  databaseUrl?: string;
  /** Absolute, like every path of the configuration: a relative one is resolved once, against the directory the service starts in. */
  dataDir: string;
  /** Where workers give each conversion its own scratch directory. */
  scratchDir: string;
  /** Where warm engines (the LibreOffice pool, the Node hosts) keep their sandboxes' directories: beside the jobs', not among them. */
  enginesDir: string;
  storage: StorageConfig;
  redisUrl: string;
  queuePrefix: string;
  logLevel: Environment['LOG_LEVEL'];
  jsonBodyLimitBytes: number;
  shutdownTimeoutMs: number;
  prices: PriceConfig;
  payments: PaymentConfig;
  x402RateLimitPerMinute: number;
  /** Requests one API process lets wait for a job's end at once (long-polled statuses and key API converts); past it a status with a wait answers 429. */
  x402StatusMaxWaiting: number;
  keyApi: KeyApiConfig;
  jobCycle: JobCycleConfig;
  workers: WorkerConfig;
  metrics: MetricsConfig;
  outbound: OutboundConfig;
  version: string;
}

/** Requests the service makes for a caller (docs/outbound-guard.md): every one under `policy`, through the one guard. */
export interface OutboundConfig {
  policy: OutboundPolicy;
  /** Fetching a source URL: total and idle time limits, and how many one API process runs at once. */
  sourceUrl: { timeoutMs: number; idleTimeoutMs: number; maxConcurrent: number };
  /** Delivering a webhook event: attempts in all, the first retry's delay (doubled each time), one attempt's time limit. */
  webhooks: { maxAttempts: number; retryBaseMs: number; timeoutMs: number };
}

/** The Prometheus endpoint: served only when a token is configured (docs/operations.md, "Metrics"). */
export interface MetricsConfig {
  /** Bearer token a scrape must send; unset = no /metrics at all (404). */
  token?: string;
  /** Where a worker-only process (no HTTP server of its own) serves /metrics, on HOST. */
  workerPort: number;
}

/** Where uploaded and converted files live: under `dataDir`/files, or in an S3-compatible bucket. */
export type StorageConfig = { driver: 'local' } | { driver: 's3'; s3: S3StorageConfig };

export interface S3StorageConfig {
  /** Absent for AWS itself; the store's URL for MinIO, R2 and the like. */
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
  /** Objects live under `<keyPrefix>/` when set, so deployments can share a bucket. */
  keyPrefix?: string;
}

/** What a worker process runs: which engine classes' queues, how many at once, its warm pools, and how its engines are sandboxed. */
export interface WorkerConfig {
  queues: EngineClass[];
  concurrency: Record<EngineClass, number>;
  libreoffice: { poolSize: number; maxConversionsPerInstance: number };
  /** Node hosts (sharp, the data and Office readers): one per image conversion that may run at once. */
  nodeHostPoolSize: number;
  sandbox: SandboxSetting;
}

/** The timings that bound how long a job can stay unfinished (docs/job-cycle.md). */
export interface JobCycleConfig {
  leaseSeconds: number;
  reconcileIntervalSeconds: number;
  deadlineMinutes: number;
  /** Test-only: pause between a job's settlement and its enqueue. */
  faultPauseBeforeEnqueueMs?: number;
}

export interface KeyApiConfig {
  /** Limits without an Api-Key header, per client IP: meant for trying the API out. */
  anonymous: KeyApiLimits;
  /** Limits a new key gets unless the CLI is told otherwise. */
  keyDefaults: KeyApiLimits;
  /** How long POST /api/v1/convert waits for its conversion. */
  convertWaitSeconds: number;
}

export interface PaymentConfig {
  mode: PaymentMode;
  /** Said in the start-up line: an inferred or default mode should be visible as such. */
  modeSource: PaymentModeSource;
  facilitatorUrl?: string;
  facilitatorAuthHeaders?: Record<string, string>;
  evm: { network: string; asset: string; assetName: string; assetVersion: string; payTo?: string };
  svm: { network: string; asset: string; payTo?: string };
  maxTimeoutSeconds: number;
  devChainRpcUrl?: string;
  /** Dev mode: a running Solana dev chain to attach to instead of starting one. */
  devChainSolanaRpcUrl?: string;
  /** Signs offers, receipts and delivery records (Ed25519, PEM or JWK); in dev mode, when unset, the public dev key. */
  receiptSigningKey?: string;
}

/** Prices in USDC atomic units (6 decimals). */
export interface PriceConfig {
  detectAtomic: number;
  jobAtomic: number;
  resultStandardAtomic: number;
  resultLargeAtomic: number;
}

export type ConfigResult = { ok: true; config: AppConfig } | { ok: false; problems: string[] };

/**
 * Reads and validates the environment; returns one message per wrong variable instead of throwing. Every path comes
 * out absolute, resolved against `cwd`: the sandbox binds paths by name, and a process started elsewhere (an engine,
 * the Node host) would read a relative one against its own directory.
 */
export function loadConfig(env: NodeJS.ProcessEnv, version: string, cwd = process.cwd()): ConfigResult {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = environmentSchema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? 'environment');
      const shown = present[name] === undefined ? 'missing' : SECRET_VARIABLES.has(name) ? 'value hidden' : `got ${JSON.stringify(present[name])}`;
      return `${name}: ${issue.message} (${shown})`;
    });
    return { ok: false, problems };
  }
  const e = parsed.data;
  const paymentMode = resolvePaymentMode(e);
  const dataDir = resolve(cwd, e.DATA_DIR);
  return {
    ok: true,
    config: {
      role: e.ROLE,
      host: e.HOST,
      port: e.PORT,
      publicBaseUrl: e.PUBLIC_BASE_URL?.replace(/\/+$/, ''),
      corsAllowedOrigins: e.CORS_ALLOWED_ORIGINS === '*' ? '*' : e.CORS_ALLOWED_ORIGINS.split(',').map((origin) => origin.replace(/\/+$/, '')),
      databaseUrl: e.DATABASE_URL,
      dataDir,
      scratchDir: e.SCRATCH_DIR ? resolve(cwd, e.SCRATCH_DIR) : join(dataDir, 'scratch'),
      enginesDir: join(dataDir, 'engines'),
      storage: storageConfig(e),
      redisUrl: e.REDIS_URL,
      queuePrefix: e.QUEUE_PREFIX,
      logLevel: e.LOG_LEVEL,
      jsonBodyLimitBytes: e.JSON_BODY_LIMIT_BYTES,
      shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
      prices: {
        detectAtomic: e.PRICE_DETECT_ATOMIC,
        jobAtomic: e.PRICE_JOB_ATOMIC,
        resultStandardAtomic: e.PRICE_RESULT_STANDARD_ATOMIC,
        resultLargeAtomic: e.PRICE_RESULT_LARGE_ATOMIC,
      },
      payments: {
        mode: paymentMode.mode,
        modeSource: paymentMode.source,
        facilitatorUrl: e.FACILITATOR_URL,
        facilitatorAuthHeaders: e.FACILITATOR_AUTH_HEADERS,
        evm: { network: e.X402_EVM_NETWORK, asset: e.X402_EVM_ASSET, assetName: e.X402_EVM_ASSET_NAME, assetVersion: e.X402_EVM_ASSET_VERSION, payTo: e.X402_EVM_PAY_TO },
        svm: { network: e.X402_SVM_NETWORK, asset: e.X402_SVM_ASSET, payTo: e.X402_SVM_PAY_TO },
        maxTimeoutSeconds: e.X402_MAX_TIMEOUT_SECONDS,
        devChainRpcUrl: e.DEVCHAIN_RPC_URL,
        devChainSolanaRpcUrl: e.DEVCHAIN_SOLANA_RPC_URL,
        receiptSigningKey: e.RECEIPT_SIGNING_KEY,
      },
      x402RateLimitPerMinute: e.X402_RATE_LIMIT_PER_MINUTE,
      x402StatusMaxWaiting: e.X402_STATUS_MAX_WAITING,
      keyApi: {
        anonymous: {
          requestsPerMinute: e.KEY_API_ANONYMOUS_REQUESTS_PER_MINUTE,
          dailyQuota: e.KEY_API_ANONYMOUS_DAILY_QUOTA,
          maxUploadBytes: e.KEY_API_ANONYMOUS_MAX_UPLOAD_BYTES,
        },
        keyDefaults: {
          requestsPerMinute: e.KEY_API_DEFAULT_REQUESTS_PER_MINUTE,
          dailyQuota: e.KEY_API_DEFAULT_DAILY_QUOTA,
          maxUploadBytes: e.KEY_API_DEFAULT_MAX_UPLOAD_BYTES,
        },
        convertWaitSeconds: e.KEY_API_CONVERT_WAIT_SECONDS,
      },
      workers: workerConfig(e),
      metrics: { token: e.METRICS_TOKEN, workerPort: e.METRICS_PORT },
      outbound: {
        policy: outboundPolicyFromEnv({ OUTBOUND_ALLOW_HOSTS: e.OUTBOUND_ALLOW_HOSTS, OUTBOUND_DENY_HOSTS: e.OUTBOUND_DENY_HOSTS, OUTBOUND_ALLOW_PORTS: e.OUTBOUND_ALLOW_PORTS }),
        sourceUrl: { timeoutMs: e.SOURCE_URL_TIMEOUT_SECONDS * 1000, idleTimeoutMs: e.SOURCE_URL_IDLE_SECONDS * 1000, maxConcurrent: e.SOURCE_URL_MAX_CONCURRENT },
        webhooks: { maxAttempts: e.WEBHOOK_MAX_ATTEMPTS, retryBaseMs: e.WEBHOOK_RETRY_BASE_SECONDS * 1000, timeoutMs: e.WEBHOOK_TIMEOUT_SECONDS * 1000 },
      },
      jobCycle: {
        leaseSeconds: e.JOB_LEASE_SECONDS,
        reconcileIntervalSeconds: e.JOB_RECONCILE_INTERVAL_SECONDS,
        deadlineMinutes: e.JOB_DEADLINE_MINUTES,
        faultPauseBeforeEnqueueMs: e.FAULT_PAUSE_BEFORE_ENQUEUE_MS,
      },
      version,
    },
  };
}

function storageConfig(e: Environment): StorageConfig {
  if (e.STORAGE_DRIVER === 'local') return { driver: 'local' };
  // checkStorage made sure the required ones are present.
  return {
    driver: 's3',
    s3: {
      endpoint: e.S3_ENDPOINT,
      region: e.S3_REGION!,
      bucket: e.S3_BUCKET!,
      accessKeyId: e.S3_ACCESS_KEY_ID!,
      secretAccessKey: e.S3_SECRET_ACCESS_KEY!,
      forcePathStyle: e.S3_FORCE_PATH_STYLE,
      keyPrefix: e.S3_KEY_PREFIX,
    },
  };
}

function workerConfig(e: Environment): WorkerConfig {
  const poolSize = e.LIBREOFFICE_POOL_SIZE ?? defaultLibreOfficePoolSize();
  return {
    queues: [...new Set(e.WORKER_QUEUES.split(','))] as EngineClass[],
    // A document conversion holds a LibreOffice instance: as many at once as there are instances.
    concurrency: { documents: e.WORKER_CONCURRENCY_DOCUMENTS ?? poolSize, media: e.WORKER_CONCURRENCY_MEDIA, images: e.WORKER_CONCURRENCY_IMAGES },
    libreoffice: { poolSize, maxConversionsPerInstance: e.LIBREOFFICE_MAX_CONVERSIONS },
    nodeHostPoolSize: e.WORKER_CONCURRENCY_IMAGES,
    sandbox: e.ENGINE_SANDBOX,
  };
}
