import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { parseSecretKey } from '../secrets.js';
import { version } from '../version.js';

/** Environment variables -> typed, frozen configuration. The only module that reads process.env. */

/** What Parley's crawler and fetcher call themselves, so site owners can recognise and address it. */
export const DEFAULT_USER_AGENT = `ParleyBot/${version} (self-hosted support agent; +https://github.com/parley/parley)`;

const positiveInt = z.coerce.number().int().positive();

/**
 * When a failed webhook delivery is tried again: after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h,
 * about 28 hours from the first attempt to the eighth and last (the Standard Webhooks reference
 * schedule).
 */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,10h';

const DURATION_UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** A comma list of delays (`30s`, `5m`, `2h`, `1d`; a bare number is seconds) in seconds, or why it is not one. */
export function parseRetrySchedule(value: string): number[] | string {
  const delays: number[] = [];
  for (const part of value.split(',')) {
    const match = /^\s*(\d+(?:\.\d+)?)\s*([smhd]?)\s*$/.exec(part);
    if (!match) return `"${part.trim()}" is not a delay (a number with s, m, h or d, as in 5s,5m,30m,2h)`;
    delays.push(Number(match[1]) * DURATION_UNITS[match[2] || 's']!);
  }
  if (delays.length > 20) return 'at most 20 retries';
  return delays;
}

/** Where language-model calls go: `builtin` is Parley's offline, deterministic engine. */
export const LLM_PROVIDERS = ['builtin', 'openai-compatible', 'openai', 'anthropic'] as const;
export type LlmProviderName = (typeof LLM_PROVIDERS)[number];

const envSchema = z.object({
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  DATABASE_URL: z.string().url().optional(),
  PARLEY_DATA_DIR: z.string().min(1).default('./data'),
  PARLEY_ADMIN_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  PARLEY_CONSOLE_DIR: z.string().min(1).optional(),
  PARLEY_WIDGET_DIR: z.string().min(1).optional(),
  PARLEY_PUBLIC_URL: z
    .string()
    .url()
    .refine((u) => /^https?:$/.test(new URL(u).protocol) && !new URL(u).search && !new URL(u).hash, 'must be an http(s) address without a query or fragment, such as https://parley.example.com')
    .optional(),
  PARLEY_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PARLEY_BODY_LIMIT_BYTES: positiveInt.default(10 * 1024 * 1024),
  PARLEY_UPLOAD_LIMIT_BYTES: positiveInt.default(25 * 1024 * 1024),
  PARLEY_RATE_LIMIT_MAX: positiveInt.default(1200),
  PARLEY_RATE_LIMIT_WINDOW_MS: positiveInt.default(60_000),
  PARLEY_RATE_LIMIT_ANSWER_MAX: positiveInt.optional(),
  PARLEY_RATE_LIMIT_SCOPE: z.enum(['deployment', 'process']).default('deployment'),
  PARLEY_WIDGET_VISITOR_RATE_LIMIT: positiveInt.default(60),
  PARLEY_WIDGET_STREAM_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
  PARLEY_WIDGET_HEARTBEAT_SECONDS: z.coerce.number().min(0.1).max(300).default(15),
  PARLEY_AUTH_CACHE_MS: z.coerce.number().int().min(0).max(1000).default(1000),
  PARLEY_WORKER_CONCURRENCY: positiveInt.default(4),
  PARLEY_JOB_POLL_SECONDS: z.coerce.number().min(0.5).default(1),
  PARLEY_JOB_SUPERVISE_SECONDS: positiveInt.default(30),
  PARLEY_WORKER_HEARTBEAT_SECONDS: positiveInt.default(10),
  PARLEY_WORKER_TIMEOUT_SECONDS: z.coerce.number().int().min(10).default(30),
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
  PARLEY_PROVIDER_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(3),
  PARLEY_PROVIDER_MAX_RETRY_WAIT_SECONDS: z.coerce.number().min(0).max(600).default(60),
  PARLEY_NOTION_CHILD_DEPTH: z.coerce.number().int().min(0).max(10).default(3),
  PARLEY_LLM_PROVIDER: z.enum(LLM_PROVIDERS).optional(),
  PARLEY_LLM_BASE_URL: z.string().url().optional(),
  PARLEY_LLM_MODEL: z.string().min(1).optional(),
  PARLEY_LLM_API_KEY: z.string().min(1).optional(),
  PARLEY_LLM_EMBEDDING_MODEL: z.string().min(1).optional(),
  PARLEY_BUILTIN_ENCODER: z.enum(['on', 'off']).default('on'),
  PARLEY_LLM_TIMEOUT_MS: positiveInt.default(60_000),
  PARLEY_LLM_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(3),
  PARLEY_LLM_RETRY_DELAY_MS: positiveInt.default(1000),
  PARLEY_KNOWLEDGE_CONCURRENCY: positiveInt.default(2),
  PARLEY_CPU_THREADS: z.coerce.number().int().min(0).max(64).optional(),
  PARLEY_ACTION_TIMEOUT_MS: positiveInt.default(10_000),
  PARLEY_ANSWER_MIN_CONFIDENCE: z.coerce.number().min(0).max(1).default(0.6),
  PARLEY_ANSWER_STAGE_TIMEOUT_MS: positiveInt.default(15_000),
  PARLEY_REFINE_LEASE_SECONDS: positiveInt.default(900),
  PARLEY_DELETED_RETENTION_DAYS: z.coerce.number().int().min(0).default(30),
  PARLEY_ASSUMED_RESOLUTION_HOURS: positiveInt.default(24),
  PARLEY_WEBHOOK_TIMEOUT_MS: positiveInt.default(10_000),
  PARLEY_WEBHOOK_CONCURRENCY: positiveInt.default(8),
  PARLEY_WEBHOOK_RETENTION_DAYS: positiveInt.default(30),
  PARLEY_AUDIT_RETENTION_DAYS: positiveInt.default(365),
  PARLEY_WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .default(DEFAULT_WEBHOOK_RETRY_SCHEDULE)
    .superRefine((value, ctx) => {
      const schedule = parseRetrySchedule(value);
      if (typeof schedule === 'string') ctx.addIssue({ code: 'custom', message: schedule });
    }),
  PARLEY_API_KEY: z.string().trim().min(1).optional(),
  PARLEY_MCP_FIX_WAIT_SECONDS: z.coerce.number().min(0).max(600).default(30),
  PARLEY_SECRET_KEY: z
    .string()
    .superRefine((value, ctx) => {
      const key = parseSecretKey(value);
      if (typeof key === 'string') ctx.addIssue({ code: 'custom', message: key });
    })
    .optional(),
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
  /** The built console served at /console/; absent means the console/dist of this installation. */
  readonly consoleDir: string | undefined;
  /** Folder of the built chat widget (widget.js) served at /widget.js; unset: widget/dist of this installation. */
  readonly widgetDir: string | undefined;
  /** The address people reach this deployment at (no trailing slash), for links Parley sends out; unset: links are paths. */
  readonly publicUrl: string | undefined;
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  readonly bodyLimitBytes: number;
  /** Largest file accepted by a multipart upload route. */
  readonly uploadLimitBytes: number;
  /** Requests per key per window: `max` on every limited route, `answerMax` on the answering routes (their own budget). */
  readonly rateLimit: {
    readonly max: number;
    readonly answerMax: number;
    readonly windowMs: number;
    /**
     * `deployment`: on PostgreSQL the windows are counted in the database for every process at
     * once; `process`: each process counts its own (embedded mode always does).
     */
    readonly scope: 'deployment' | 'process';
  };
  readonly authCacheMs: number;
  /** The chat widget's visitor routes (docs/widget.md). */
  readonly widget: {
    /** Requests per visitor per rate-limit window, for keys that set no `visitorRateLimit`. */
    readonly visitorRateLimit: number;
    /** How often an open event stream reads its conversation. */
    readonly streamPollMs: number;
    /** How often an open event stream sends a heartbeat comment. */
    readonly heartbeatMs: number;
  };
  readonly jobs: {
    readonly concurrency: number;
    readonly pollSeconds: number;
    readonly superviseSeconds: number;
    /** A worker refreshes its row in `job_workers` and its running jobs' heartbeats this often. */
    readonly heartbeatSeconds: number;
    /** A worker silent this long is dead: its jobs are taken over, and `/readyz` may say degraded. */
    readonly workerTimeoutSeconds: number;
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
    /**
     * Requests at once to one host, and the pause between two starts on one host: for the whole
     * deployment on PostgreSQL, per process when embedded.
     */
    readonly perHost: number;
    readonly hostDelayMs: number;
    /** A job not finished within this is retried by another worker (a killed worker's job comes back). */
    readonly leaseSeconds: number;
    /** First delay before a transient failure (timeout, 5xx, 429) is tried again; doubles up to 12x. */
    readonly retryDelaySeconds: number;
    readonly crawlTimeBudgetMs: number;
    /** A provider's 429 is waited out (its Retry-After, up to the wait) this many times before the job fails or retries. */
    readonly providerMaxRetries: number;
    readonly providerMaxRetryWaitMs: number;
    /** How many levels of Notion child pages and database rows below a registered resource are imported. */
    readonly notionChildDepth: number;
  };
  /** The language model (docs/ai.md). `builtin` needs no model and no network. */
  readonly llm: {
    readonly provider: LlmProviderName;
    readonly baseUrl: string | undefined;
    readonly model: string;
    readonly apiKey: string | undefined;
    /** Embedding model of the same provider; set, it adds vector similarity to knowledge search. */
    readonly embeddingModel: string | undefined;
    /** The built-in engine reads meaning with its sentence encoder too (ai/encoder.ts); off, with words alone. */
    readonly builtinEncoder: boolean;
    readonly timeoutMs: number;
    /** Retries of a call answered 429, 5xx or not at all; the wait doubles from retryDelayMs. */
    readonly maxRetries: number;
    readonly retryDelayMs: number;
  };
  /** Knowledge-generation jobs run at once in each worker process. */
  readonly knowledgeConcurrency: number;
  /** Worker threads for extraction and the built-in engine; 0 runs that work on the event loop. */
  readonly cpuThreads: number;
  /**
   * The key secrets are sealed with (base64 of 32 bytes). Required with DATABASE_URL; embedded mode
   * generates one into the data folder (runtime.ts).
   */
  readonly secretKey: string | undefined;
  /** Time limit of one external API call step of an action or attribute (its retry has its own). */
  readonly actionTimeoutMs: number;
  /** The built-in engine answers from this confidence (0 to 1) and hands over below it. */
  readonly answerMinConfidence: number;
  /** Time budget of each stage of the answer pipeline (attributes, a model call, a rule's actions). */
  readonly answerStageTimeoutMs: number;
  /** Days a deleted conversation's rows are kept before the housekeeping job purges them. */
  readonly deletedRetentionDays: number;
  /** Hours of customer silence after an answer from which a conversation counts as resolved (assumed). */
  readonly assumedResolutionHours: number;
  readonly webhooks: {
    /** Time limit of one delivery attempt (connection, request and response). */
    readonly timeoutMs: number;
    /** Delays before each retry of a failed delivery, in seconds: its length is the number of retries. */
    readonly retryDelaysSeconds: readonly number[];
    /** Deliveries at once per worker process (they mostly wait on the receiver). */
    readonly concurrency: number;
    /** Days a finished delivery (delivered or failed) is kept before the hourly purge. */
    readonly retentionDays: number;
  };
  /** A Refine with AI iteration not finished within this is run again by another worker (a killed worker's iteration comes back). */
  readonly refineLeaseSeconds: number;
  /** Days an audit log entry is kept before the hourly purge (PARLEY_AUDIT_RETENTION_DAYS). */
  readonly auditRetentionDays: number;
  /**
   * npm's command when npm started this process (`npm start`, `npx parley`: npm's own
   * `npm_command`, not a setting); the process then stops when npm ends (runtime.ts stopOnSignals).
   */
  readonly startedByNpm: string | undefined;
  readonly mcp: {
    /** The workspace API key `parley mcp` (the stdio MCP server) acts with (PARLEY_API_KEY). */
    readonly apiKey: string | undefined;
    /** How long the MCP tool propose_fix waits for its Refine with AI iteration before it answers with what to poll. */
    readonly fixWaitMs: number;
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
  if (e.PARLEY_WORKER_TIMEOUT_SECONDS < 2 * e.PARLEY_WORKER_HEARTBEAT_SECONDS) {
    // A live worker must beat at least twice within the timeout, or one slow beat reads as a death.
    throw new ConfigError([
      `PARLEY_WORKER_TIMEOUT_SECONDS: must be at least twice PARLEY_WORKER_HEARTBEAT_SECONDS (${e.PARLEY_WORKER_HEARTBEAT_SECONDS})`,
    ]);
  }
  const llm = llmConfig(e);
  return Object.freeze({
    host: e.HOST,
    port: e.PORT,
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.PARLEY_DATA_DIR),
    adminToken: e.PARLEY_ADMIN_TOKEN,
    consoleDir: e.PARLEY_CONSOLE_DIR === undefined ? undefined : path.resolve(e.PARLEY_CONSOLE_DIR),
    widgetDir: e.PARLEY_WIDGET_DIR === undefined ? undefined : path.resolve(e.PARLEY_WIDGET_DIR),
    publicUrl: e.PARLEY_PUBLIC_URL?.replace(/\/+$/, ''),
    logLevel: e.PARLEY_LOG_LEVEL,
    bodyLimitBytes: e.PARLEY_BODY_LIMIT_BYTES,
    uploadLimitBytes: e.PARLEY_UPLOAD_LIMIT_BYTES,
    rateLimit: Object.freeze({
      max: e.PARLEY_RATE_LIMIT_MAX,
      answerMax: e.PARLEY_RATE_LIMIT_ANSWER_MAX ?? e.PARLEY_RATE_LIMIT_MAX,
      windowMs: e.PARLEY_RATE_LIMIT_WINDOW_MS,
      scope: e.PARLEY_RATE_LIMIT_SCOPE,
    }),
    widget: Object.freeze({
      visitorRateLimit: e.PARLEY_WIDGET_VISITOR_RATE_LIMIT,
      streamPollMs: e.PARLEY_WIDGET_STREAM_POLL_MS,
      heartbeatMs: Math.round(e.PARLEY_WIDGET_HEARTBEAT_SECONDS * 1000),
    }),
    authCacheMs: e.PARLEY_AUTH_CACHE_MS,
    jobs: Object.freeze({
      concurrency: e.PARLEY_WORKER_CONCURRENCY,
      pollSeconds: e.PARLEY_JOB_POLL_SECONDS,
      superviseSeconds: e.PARLEY_JOB_SUPERVISE_SECONDS,
      heartbeatSeconds: e.PARLEY_WORKER_HEARTBEAT_SECONDS,
      workerTimeoutSeconds: e.PARLEY_WORKER_TIMEOUT_SECONDS,
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
      providerMaxRetries: e.PARLEY_PROVIDER_MAX_RETRIES,
      providerMaxRetryWaitMs: e.PARLEY_PROVIDER_MAX_RETRY_WAIT_SECONDS * 1000,
      notionChildDepth: e.PARLEY_NOTION_CHILD_DEPTH,
    }),
    llm,
    knowledgeConcurrency: e.PARLEY_KNOWLEDGE_CONCURRENCY,
    cpuThreads: e.PARLEY_CPU_THREADS ?? defaultCpuThreads(),
    secretKey: e.PARLEY_SECRET_KEY?.trim(),
    actionTimeoutMs: e.PARLEY_ACTION_TIMEOUT_MS,
    answerMinConfidence: e.PARLEY_ANSWER_MIN_CONFIDENCE,
    answerStageTimeoutMs: e.PARLEY_ANSWER_STAGE_TIMEOUT_MS,
    refineLeaseSeconds: e.PARLEY_REFINE_LEASE_SECONDS,
    auditRetentionDays: e.PARLEY_AUDIT_RETENTION_DAYS,
    deletedRetentionDays: e.PARLEY_DELETED_RETENTION_DAYS,
    assumedResolutionHours: e.PARLEY_ASSUMED_RESOLUTION_HOURS,
    webhooks: Object.freeze({
      timeoutMs: e.PARLEY_WEBHOOK_TIMEOUT_MS,
      retryDelaysSeconds: Object.freeze(parseRetrySchedule(e.PARLEY_WEBHOOK_RETRY_SCHEDULE) as number[]),
      concurrency: e.PARLEY_WEBHOOK_CONCURRENCY,
      retentionDays: e.PARLEY_WEBHOOK_RETENTION_DAYS,
    }),
    mcp: Object.freeze({ apiKey: e.PARLEY_API_KEY, fixWaitMs: Math.round(e.PARLEY_MCP_FIX_WAIT_SECONDS * 1000) }),
    startedByNpm: env.npm_command || undefined,
  });
}

/** One thread per core but one, which the event loop keeps: the API answers while the pool works. */
export function defaultCpuThreads(): number {
  return Math.max(1, os.availableParallelism() - 1);
}

/**
 * The model settings. Without PARLEY_LLM_PROVIDER, a configured model means an OpenAI-compatible
 * endpoint when a base URL is given and OpenAI otherwise; no model means the built-in engine.
 */
function llmConfig(e: z.output<typeof envSchema>): Config['llm'] {
  const provider: LlmProviderName =
    e.PARLEY_LLM_PROVIDER ?? (e.PARLEY_LLM_MODEL ? (e.PARLEY_LLM_BASE_URL ? 'openai-compatible' : 'openai') : 'builtin');
  const problems: string[] = [];
  if (provider !== 'builtin' && !e.PARLEY_LLM_MODEL) problems.push(`PARLEY_LLM_MODEL: required when PARLEY_LLM_PROVIDER is ${provider}`);
  if (provider === 'openai-compatible' && !e.PARLEY_LLM_BASE_URL) {
    problems.push('PARLEY_LLM_BASE_URL: required when PARLEY_LLM_PROVIDER is openai-compatible');
  }
  if ((provider === 'openai' || provider === 'anthropic') && !e.PARLEY_LLM_API_KEY && !e.PARLEY_LLM_BASE_URL) {
    problems.push(`PARLEY_LLM_API_KEY: required for ${provider} (or set PARLEY_LLM_BASE_URL to a server that needs none)`);
  }
  if (e.PARLEY_LLM_EMBEDDING_MODEL && (provider === 'builtin' || provider === 'anthropic')) {
    problems.push(`PARLEY_LLM_EMBEDDING_MODEL: the ${provider} provider has no embedding models`);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze({
    provider,
    baseUrl: e.PARLEY_LLM_BASE_URL,
    model: provider === 'builtin' ? 'parley-builtin' : (e.PARLEY_LLM_MODEL ?? ''),
    apiKey: e.PARLEY_LLM_API_KEY,
    embeddingModel: e.PARLEY_LLM_EMBEDDING_MODEL,
    builtinEncoder: provider === 'builtin' && e.PARLEY_BUILTIN_ENCODER === 'on',
    timeoutMs: e.PARLEY_LLM_TIMEOUT_MS,
    maxRetries: e.PARLEY_LLM_MAX_RETRIES,
    retryDelayMs: e.PARLEY_LLM_RETRY_DELAY_MS,
  });
}

/** Returns a copy of a configuration with some fields replaced (tests, CLI flags). */
export function withOverrides(config: Config, overrides: Partial<Config>): Config {
  return Object.freeze({ ...config, ...overrides });
}
