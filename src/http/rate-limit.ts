import type { FastifyInstance, FastifyRequest, preParsingHookHandler } from 'fastify';
import { AppError } from './errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `false`: the route is not rate limited (operations endpoints). */
    rateLimit?: false;
  }
}

/** Keys tracked at once; when full, ended windows are dropped first, then the oldest. */
const MAX_WINDOWS = 5000;

interface Window {
  count: number;
  startedAt: number;
}

/**
 * Fixed-window request counters, one per key. A window starts with the first request of a key and
 * lasts `windowMs`; the request that ends it starts the next one.
 */
export class FixedWindowCounter {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly windowMs: number) {}

  /** Counts one request of `key` at `now` (epoch ms); returns its window (count includes this request). */
  hit(key: string, now: number): Window {
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
    return window;
  }

  /** Milliseconds left in `window` at `now`. */
  remainingMs(window: Window, now: number): number {
    return this.windowMs - (now - window.startedAt);
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

function bucketOf(request: FastifyRequest): string {
  return request.principal ? `key:${request.principal.apiKeyId}` : `ip:${request.ip}`;
}

/**
 * A limit a request is held to besides its key's, in the same window: a widget visitor's
 * (src/modules/widget/visitor-limit.ts). `bucket` names whose requests count together.
 */
export type ExtraLimit = (request: FastifyRequest) => { bucket: string; max: number } | undefined;

/**
 * Rate limit per API key (per client IP without one) on every route registered after this call,
 * unless it declares `rateLimit: false`, and the `extra` limit where it applies. Runs after the
 * route's own preParsing checks; answers 429 with Retry-After and sets the x-ratelimit-* headers
 * (of the extra limit when that one is exceeded). A synchronous hook: no promise per request.
 */
export function registerRateLimit(app: FastifyInstance, options: { max: number; windowMs: number; extra?: ExtraLimit }): void {
  const counter = new FixedWindowCounter(options.windowMs);
  const limit: preParsingHookHandler = (request, reply, payload, done) => {
    const now = Date.now();
    const extra = options.extra?.(request);
    let max = options.max;
    let window = counter.hit(bucketOf(request), now);
    if (extra && window.count <= max) {
      const extraWindow = counter.hit(extra.bucket, now);
      if (extraWindow.count > extra.max) [max, window] = [extra.max, extraWindow];
    }
    const resetS = Math.ceil(counter.remainingMs(window, now) / 1000);
    reply.header('x-ratelimit-limit', max);
    if (window.count <= max) {
      reply.header('x-ratelimit-remaining', max - window.count);
      reply.header('x-ratelimit-reset', resetS);
      done(null, payload);
      return;
    }
    reply.header('x-ratelimit-remaining', 0);
    reply.header('x-ratelimit-reset', resetS);
    reply.header('retry-after', resetS);
    done(new AppError('too_many_requests', `rate limit of ${max} requests per ${spokenDuration(resetS * 1000)} exceeded; retry later`));
  };
  app.addHook('onRoute', (route) => {
    if (route.config?.rateLimit === false) return;
    const own = route.preParsing;
    route.preParsing = own === undefined ? [limit] : Array.isArray(own) ? [...own, limit] : [own, limit];
  });
}
