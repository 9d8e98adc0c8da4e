import type { FastifyInstance, FastifyReply, FastifyRequest, preParsingHookHandler, RequestPayload } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import type { Database } from '../db/database.js';
import { type CountedWindow, type RateWindowCounter, rateWindowCounter } from '../db/limits.js';
import { AppError } from './errors.js';

/** The answering routes (Generate Answer, feedback on a reply) have a budget of their own. */
export type RateLimitBudget = 'answer';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `false`: the route is not rate limited (operations endpoints); `answer`: the answering budget. */
    rateLimit?: false | RateLimitBudget;
  }
}

/** Keys tracked at once; when full, ended windows are dropped first, then the oldest. */
const MAX_WINDOWS = 5000;

interface Window {
  count: number;
  startedAt: number;
}

/**
 * Where a process counts requests: in its memory (embedded mode) or in the database, for every
 * process of the deployment. An in-memory count answers synchronously (no promise per request).
 */
export interface RequestCounter {
  /** Counts one request of `bucket` at `now` (epoch ms) against `max`; the count includes it. */
  hit(bucket: string, now: number, max: number): CountedWindow | Promise<CountedWindow>;
}

/**
 * Fixed-window request counters, one per key, in this process. A window starts with the first
 * request of a key and lasts `windowMs`; the request that ends it starts the next one.
 */
export class FixedWindowCounter implements RequestCounter {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly windowMs: number) {}

  hit(key: string, now: number): CountedWindow {
    let window = this.windows.get(key);
    if (!window) {
      if (this.windows.size >= MAX_WINDOWS) this.makeRoom(now);
      window = { count: 0, startedAt: now };
      this.windows.set(key, window);
    } else if (window.startedAt + this.windowMs <= now) {
      window.count = 0;
      window.startedAt = now;
    }
    window.count += 1;
    return { count: window.count, remainingMs: this.windowMs - (now - window.startedAt) };
  }

  private makeRoom(now: number): void {
    for (const [key, window] of this.windows) {
      if (window.startedAt + this.windowMs <= now) this.windows.delete(key);
    }
    if (this.windows.size < MAX_WINDOWS) return;
    const oldest = this.windows.keys().next();
    if (!oldest.done) this.windows.delete(oldest.value);
  }
}

/** A request waiting for its count in the database. */
interface Waiting {
  now: number;
  max: number;
  resolve(window: CountedWindow): void;
}

/**
 * The same fixed windows counted in PostgreSQL (db/limits.ts), so a key's limit holds for the
 * deployment however many API processes serve it. One statement per bucket is in flight at a time:
 * the requests of a bucket that arrive meanwhile are counted together by the next one (`count + n`),
 * each given its own number in the order it came, so a busy key costs one upsert per round trip
 * instead of one per request, and the counts stay exact. A bucket found over its limit is refused
 * from memory until its window ends (a count only grows within a window), so a client hammering past
 * its limit costs the database nothing. When the statement fails, its requests are counted in this
 * process instead (the limit then holds per process, as embedded) with a warning at most once a
 * window: a database hiccup never turns a request into a 500 or lets it through uncounted.
 */
export class SharedWindowCounter implements RequestCounter {
  /** Buckets over their limit: when their window ends (epoch ms of this process). */
  private readonly refusedUntil = new Map<string, number>();
  /** Buckets with a statement in flight: the requests the next statement counts. */
  private readonly queued = new Map<string, Waiting[]>();
  private readonly fallback: FixedWindowCounter;
  private warnedAt = -Infinity;

  constructor(
    /** The database's count (db/limits.ts rateWindowCounter). */
    private readonly count: RateWindowCounter,
    private readonly windowMs: number,
    private readonly log: Logger,
  ) {
    this.fallback = new FixedWindowCounter(windowMs);
  }

  hit(bucket: string, now: number, max: number): CountedWindow | Promise<CountedWindow> {
    const refused = this.refused(bucket, now, max);
    if (refused) return refused;
    return new Promise((resolve) => {
      const waiting = { now, max, resolve };
      const queued = this.queued.get(bucket);
      if (queued) queued.push(waiting);
      else {
        this.queued.set(bucket, []);
        this.send(bucket, [waiting]);
      }
    });
  }

  /** The answer of a bucket refused from memory, while its window lasts. */
  private refused(bucket: string, now: number, max: number): CountedWindow | undefined {
    const until = this.refusedUntil.get(bucket);
    if (until === undefined) return undefined;
    if (until > now) return { count: max + 1, remainingMs: until - now };
    this.refusedUntil.delete(bucket);
    return undefined;
  }

  /** Counts `batch` in one statement, then the requests that queued behind it. */
  private send(bucket: string, batch: Waiting[]): void {
    this.count(bucket, this.windowMs, batch.length)
      .then(
        (window) => {
          // Numbered in the order they came: the last one's count is the window's.
          batch.forEach((waiting, i) => {
            const count = window.count - (batch.length - 1 - i);
            if (count > waiting.max) this.refuse(bucket, waiting.now + window.remainingMs, waiting.now);
            waiting.resolve({ count, remainingMs: window.remainingMs });
          });
        },
        (error: unknown) => {
          const now = batch[0]!.now;
          if (now - this.warnedAt >= this.windowMs) {
            this.warnedAt = now;
            this.log.warn({ err: error }, 'the shared rate-limit count failed; counting in this process until it answers again');
          }
          for (const waiting of batch) waiting.resolve(this.fallback.hit(bucket, waiting.now));
        },
      )
      .finally(() => this.next(bucket));
  }

  private next(bucket: string): void {
    const queued = this.queued.get(bucket) ?? [];
    const now = Date.now();
    // A bucket refused meanwhile answers its queue from memory; the rest go in the next statement.
    const left = queued.filter((waiting) => {
      const refused = this.refused(bucket, now, waiting.max);
      if (refused) waiting.resolve(refused);
      return !refused;
    });
    if (left.length === 0) {
      this.queued.delete(bucket);
      return;
    }
    this.queued.set(bucket, []);
    this.send(bucket, left);
  }

  private refuse(bucket: string, until: number, now: number): void {
    if (this.refusedUntil.size >= MAX_WINDOWS) {
      for (const [key, end] of this.refusedUntil) if (end <= now) this.refusedUntil.delete(key);
      const oldest = this.refusedUntil.keys().next();
      if (this.refusedUntil.size >= MAX_WINDOWS && !oldest.done) this.refusedUntil.delete(oldest.value);
    }
    this.refusedUntil.set(bucket, until);
  }
}

/** The counter of a process: shared on PostgreSQL unless PARLEY_RATE_LIMIT_SCOPE=process, in memory when embedded. */
export function createRequestCounter(database: Database, config: Config, log: Logger): RequestCounter {
  const { windowMs, scope } = config.rateLimit;
  return database.kind === 'postgres' && scope === 'deployment' ? new SharedWindowCounter(rateWindowCounter(database.db), windowMs, log) : new FixedWindowCounter(windowMs);
}

const UNITS: readonly [name: string, ms: number][] = [
  ['year', 365.25 * 24 * 3600 * 1000],
  ['day', 24 * 3600 * 1000],
  ['hour', 3600 * 1000],
  ['minute', 60 * 1000],
  ['second', 1000],
];

/** A duration the way the 429 message has always said it: "1 minute", "59 seconds", "500 ms". */
export function spokenDuration(ms: number): string {
  const abs = Math.abs(ms);
  const unit = UNITS.find(([, size]) => abs >= size);
  if (!unit) return `${ms} ms`;
  const value = abs / unit[1];
  const count = Math.trunc(value) === value ? value : Math.trunc(value + 0.5);
  return `${ms < 0 ? '-' : ''}${count} ${unit[0]}${count !== 1 ? 's' : ''}`;
}

function bucketOf(request: FastifyRequest, budget: RateLimitBudget | undefined): string {
  const base = request.principal ? `key:${request.principal.apiKeyId}` : `ip:${request.ip}`;
  return budget ? `${base}:${budget}` : base;
}

/**
/**
 * A limit a request is held to besides its key's, in the same window: a widget visitor's
 * (src/modules/widget/visitor-limit.ts). `bucket` names whose requests count together.
 */
export type ExtraLimit = (request: FastifyRequest) => { bucket: string; max: number } | undefined;

/**
 * Rate limit per API key (per client IP without one) on every route registered after this call,
 * unless it declares `rateLimit: false`; routes declaring `rateLimit: 'answer'` count against the
 * key's answering budget instead; and the `extra` limit where it applies (counted only while the
 * key's own is not exceeded). Runs after the route's own preParsing checks; answers 429 with
 * Retry-After and sets the x-ratelimit-* headers (of the extra limit when that one is exceeded).
 */
export function registerRateLimit(
  app: FastifyInstance,
  options: Config['rateLimit'] & { extra?: ExtraLimit },
  counter: RequestCounter,
): void {
  const window = spokenDuration(options.windowMs);
  /** Counts one request of `bucket`, then calls `then` with its window, whether counted here or in the database. */
  const count = (bucket: string, max: number, then: (w: CountedWindow) => void, fail: (error: Error) => void): void => {
    const counted = counter.hit(bucket, Date.now(), max);
    if (counted instanceof Promise) counted.then(then, fail);
    else then(counted);
  };
  /** Sets the x-ratelimit-* headers of the window that decides, and lets the request on or answers 429. */
  const decide = (reply: FastifyReply, payload: RequestPayload, done: Parameters<preParsingHookHandler>[3], max: number, { count: seen, remainingMs }: CountedWindow): void => {
    const resetS = Math.max(1, Math.ceil(remainingMs / 1000));
    reply.header('x-ratelimit-limit', max);
    reply.header('x-ratelimit-remaining', Math.max(0, max - seen));
    reply.header('x-ratelimit-reset', resetS);
    if (seen <= max) {
      done(null, payload);
      return;
    }
    reply.header('retry-after', resetS);
    done(new AppError('too_many_requests', `rate limit of ${max} requests per ${window} exceeded; retry later`));
  };
  const limiter = (budget: RateLimitBudget | undefined): preParsingHookHandler => {
    const keyMax = budget === 'answer' ? options.answerMax : options.max;
    return (request, reply, payload, done) => {
      const extra = options.extra?.(request);
      const counted = counter.hit(bucketOf(request, budget), Date.now(), keyMax);
      // The common case, a key counted in this process with no extra limit: no promise, no closure.
      if (!extra && !(counted instanceof Promise)) {
        decide(reply, payload, done, keyMax, counted);
        return;
      }
      const fail = (error: Error) => done(error);
      const then = (key: CountedWindow) => {
        if (!extra || key.count > keyMax) {
          decide(reply, payload, done, keyMax, key);
          return;
        }
        count(extra.bucket, extra.max, (own) => (own.count > extra.max ? decide(reply, payload, done, extra.max, own) : decide(reply, payload, done, keyMax, key)), fail);
      };
      if (counted instanceof Promise) counted.then(then, fail);
      else then(counted);
    };
  };
  const general = limiter(undefined);
  const answering = limiter('answer');
  app.addHook('onRoute', (route) => {
    const budget = route.config?.rateLimit;
    if (budget === false) return;
    const limit = budget === 'answer' ? answering : general;
    const own = route.preParsing;
    route.preParsing = own === undefined ? [limit] : Array.isArray(own) ? [...own, limit] : [own, limit];
  });
}
