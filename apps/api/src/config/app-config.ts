import { z } from 'zod';

export const ROLES = ['api', 'worker', 'all'] as const;
export type Role = (typeof ROLES)[number];

const port = z.coerce.number().int().min(0).max(65535);
const atomicUnits = z.coerce.number().int().min(0).max(1_000_000_000);
const url = (protocols: string[]) =>
  z
    .string()
    .url()
    .refine((value) => protocols.includes(new URL(value).protocol), {
      message: `must start with ${protocols.map((p) => `${p}//`).join(' or ')}`,
    });

/** Every environment variable the service reads. The README's configuration table mirrors it. */
export const environmentSchema = z.object({
  ROLE: z.enum(ROLES).default('all'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: port.default(3000),
  PUBLIC_BASE_URL: url(['http:', 'https:']).optional(),
  DATABASE_URL: url(['postgres:', 'postgresql:']).optional(),
  DATA_DIR: z.string().min(1).default('.data'),
  REDIS_URL: url(['redis:', 'rediss:']).default('redis://127.0.0.1:6379'),
  QUEUE_PREFIX: z.string().regex(/^[A-Za-z0-9:_-]{1,64}$/, 'letters, digits, ":", "_" or "-" only').default('fileshift'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  JSON_BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1000).default(30_000),
  PRICE_DETECT_ATOMIC: atomicUnits.default(2000),
  PRICE_JOB_ATOMIC: atomicUnits.default(2000),
  PRICE_RESULT_STANDARD_ATOMIC: atomicUnits.default(20_000),
  PRICE_RESULT_LARGE_ATOMIC: atomicUnits.default(40_000),
});

export type Environment = z.infer<typeof environmentSchema>;

export interface AppConfig {
  role: Role;
  host: string;
  port: number;
  publicBaseUrl?: string;
  databaseUrl?: string;
  dataDir: string;
  redisUrl: string;
  queuePrefix: string;
  logLevel: Environment['LOG_LEVEL'];
  jsonBodyLimitBytes: number;
  shutdownTimeoutMs: number;
  prices: PriceConfig;
  version: string;
}

/** Prices in USDC atomic units (6 decimals). */
export interface PriceConfig {
  detectAtomic: number;
  jobAtomic: number;
  resultStandardAtomic: number;
  resultLargeAtomic: number;
}

export type ConfigResult = { ok: true; config: AppConfig } | { ok: false; problems: string[] };

/** Reads and validates the environment; returns one message per wrong variable instead of throwing. */
export function loadConfig(env: NodeJS.ProcessEnv, version: string): ConfigResult {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = environmentSchema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? 'environment');
      const shown = present[name] === undefined ? 'missing' : `got ${JSON.stringify(present[name])}`;
      return `${name}: ${issue.message} (${shown})`;
    });
    return { ok: false, problems };
  }
  const e = parsed.data;
  return {
    ok: true,
    config: {
      role: e.ROLE,
      host: e.HOST,
      port: e.PORT,
      publicBaseUrl: e.PUBLIC_BASE_URL?.replace(/\/+$/, ''),
      databaseUrl: e.DATABASE_URL,
      dataDir: e.DATA_DIR,
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
      version,
    },
  };
}
