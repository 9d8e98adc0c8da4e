import path from 'node:path';
import { z } from 'zod';
import { version } from '../version.js';

/** Environment variables -> typed, frozen configuration. The only module that reads process.env. */

/** What Parley's crawler and fetcher call themselves, so site owners can recognise and address it. */
export const DEFAULT_USER_AGENT = `ParleyBot/${version} (self-hosted support agent; +https://github.com/parley/parley)`;

const positiveInt = z.coerce.number().int().positive();

const envSchema = z.object({
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  DATABASE_URL: z.string().url().optional(),
  PARLEY_DATA_DIR: z.string().min(1).default('./data'),
  PARLEY_ADMIN_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  PARLEY_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PARLEY_BODY_LIMIT_BYTES: positiveInt.default(10 * 1024 * 1024),
  PARLEY_UPLOAD_LIMIT_BYTES: positiveInt.default(25 * 1024 * 1024),
  PARLEY_RATE_LIMIT_MAX: positiveInt.default(1200),
  PARLEY_RATE_LIMIT_WINDOW_MS: positiveInt.default(60_000),
  PARLEY_AUTH_CACHE_MS: z.coerce.number().int().min(0).max(1000).default(1000),
  PARLEY_WORKER_CONCURRENCY: positiveInt.default(4),
  PARLEY_JOB_POLL_SECONDS: z.coerce.number().min(0.5).default(1),
  PARLEY_JOB_SUPERVISE_SECONDS: positiveInt.default(30),
  PARLEY_KEY_RETENTION_DAYS: z.coerce.number().int().min(0).default(30),
  PARLEY_SHUTDOWN_TIMEOUT_MS: positiveInt.default(30_000),
  PARLEY_DB_POOL_MAX: positiveInt.default(10),
  PARLEY_FETCH_ALLOW_PRIVATE: z.enum(['true', 'false', '1', '0']).default('false'),
  PARLEY_FETCH_TIMEOUT_MS: positiveInt.default(20_000),
  PARLEY_FETCH_MAX_BYTES: positiveInt.default(10 * 1024 * 1024),
  PARLEY_FETCH_USER_AGENT: z.string().min(1).optional(),
  PARLEY_INGEST_CONCURRENCY: positiveInt.default(8),
  PARLEY_INGEST_PER_HOST: positiveInt.default(2),
  PARLEY_INGEST_HOST_DELAY_MS: z.coerce.number().int().min(0).default(100),
  PARLEY_INGEST_LEASE_SECONDS: positiveInt.default(300),
  PARLEY_INGEST_RETRY_DELAY_SECONDS: positiveInt.default(10),
  PARLEY_CRAWL_TIME_BUDGET_MS: positiveInt.default(60_000),
});

export type Env = z.input<typeof envSchema>;

/** Every environment variable Parley reads (all documented in .env.example). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(envSchema.shape);

export interface Config {
  readonly host: string;
  readonly port: number;
  /** Set when running on PostgreSQL; absent means embedded PGlite in `dataDir`. */
  readonly databaseUrl: string | undefined;
  readonly dataDir: string;
  readonly adminToken: string | undefined;
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  readonly bodyLimitBytes: number;
  /** Largest file accepted by a multipart upload route. */
  readonly uploadLimitBytes: number;
  readonly rateLimit: { readonly max: number; readonly windowMs: number };
  readonly authCacheMs: number;
  readonly jobs: {
    readonly concurrency: number;
    readonly pollSeconds: number;
    readonly superviseSeconds: number;
  };
  readonly keyRetentionDays: number;
  readonly shutdownTimeoutMs: number;
  readonly dbPoolMax: number;
  /** Outbound requests to user-supplied URLs (safeFetch). */
  readonly fetch: {
    /** Allow loopback and private addresses (tests, local setups); refused by default. */
    readonly allowPrivate: boolean;
    readonly timeoutMs: number;
    readonly maxBytes: number;
    readonly userAgent: string;
  };
  /** Source ingestion workers and the deep crawl. */
  readonly ingest: {
    /** Ingestion jobs run at once in each worker process. */
    readonly concurrency: number;
    /** Requests at once to one host, and the pause between two starts on one host. */
    readonly perHost: number;
    readonly hostDelayMs: number;
    /** A job not finished within this is retried by another worker (a killed worker's job comes back). */
    readonly leaseSeconds: number;
    /** First delay before a transient failure (timeout, 5xx, 429) is tried again; doubles up to 12x. */
    readonly retryDelaySeconds: number;
    readonly crawlTimeBudgetMs: number;
  };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parses an environment (process.env by default), listing every problem at once. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const e = parsed.data;
  return Object.freeze({
    host: e.HOST,
    port: e.PORT,
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.PARLEY_DATA_DIR),
    adminToken: e.PARLEY_ADMIN_TOKEN,
    logLevel: e.PARLEY_LOG_LEVEL,
    bodyLimitBytes: e.PARLEY_BODY_LIMIT_BYTES,
    uploadLimitBytes: e.PARLEY_UPLOAD_LIMIT_BYTES,
    rateLimit: Object.freeze({ max: e.PARLEY_RATE_LIMIT_MAX, windowMs: e.PARLEY_RATE_LIMIT_WINDOW_MS }),
    authCacheMs: e.PARLEY_AUTH_CACHE_MS,
    jobs: Object.freeze({
      concurrency: e.PARLEY_WORKER_CONCURRENCY,
      pollSeconds: e.PARLEY_JOB_POLL_SECONDS,
      superviseSeconds: e.PARLEY_JOB_SUPERVISE_SECONDS,
    }),
    keyRetentionDays: e.PARLEY_KEY_RETENTION_DAYS,
    shutdownTimeoutMs: e.PARLEY_SHUTDOWN_TIMEOUT_MS,
    dbPoolMax: e.PARLEY_DB_POOL_MAX,
    fetch: Object.freeze({
      allowPrivate: e.PARLEY_FETCH_ALLOW_PRIVATE === 'true' || e.PARLEY_FETCH_ALLOW_PRIVATE === '1',
      timeoutMs: e.PARLEY_FETCH_TIMEOUT_MS,
      maxBytes: e.PARLEY_FETCH_MAX_BYTES,
      userAgent: e.PARLEY_FETCH_USER_AGENT ?? DEFAULT_USER_AGENT,
    }),
    ingest: Object.freeze({
      concurrency: e.PARLEY_INGEST_CONCURRENCY,
      perHost: e.PARLEY_INGEST_PER_HOST,
      hostDelayMs: e.PARLEY_INGEST_HOST_DELAY_MS,
      leaseSeconds: e.PARLEY_INGEST_LEASE_SECONDS,
      retryDelaySeconds: e.PARLEY_INGEST_RETRY_DELAY_SECONDS,
      crawlTimeBudgetMs: e.PARLEY_CRAWL_TIME_BUDGET_MS,
    }),
  });
}

/** Returns a copy of a configuration with some fields replaced (tests, CLI flags). */
export function withOverrides(config: Config, overrides: Partial<Config>): Config {
  return Object.freeze({ ...config, ...overrides });
}
