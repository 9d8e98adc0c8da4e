// Politeness towards one site, shared by the crawler and the ingestion jobs: at most `perHost`
// requests in flight per host and at least `delayMs` between the starts of two requests to it.
// HostLimiter keeps it in this process (embedded mode); SharedHostLimiter (shared-host-limiter.ts)
// for every process of a PostgreSQL deployment. Callers see one interface and do not care which.

/** Runs requests to a site politely; the crawler and the ingestion jobs call only this. */
export interface HostPoliteness {
  /**
   * Runs `fn` once the host of `url` has a free slot and its spacing has elapsed. `delayMs`
   * overrides the spacing for this call (a robots.txt Crawl-delay, for instance).
   */
  run<T>(url: string, fn: () => Promise<T>, delayMs?: number): Promise<T>;
}

export interface HostLimiterOptions {
  perHost: number;
  delayMs: number;
}

interface HostState {
  active: number;
  /** Earliest time the next request to this host may start. */
  nextStart: number;
  waiting: (() => void)[];
}

/** The host a URL's politeness counts against (the URL itself when it does not parse). */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** Per-host concurrency and start spacing in this process; callers are served in arrival order. */
export class HostLimiter implements HostPoliteness {
  private readonly hosts = new Map<string, HostState>();
  private readonly perHost: number;
  private readonly delayMs: number;

  constructor(options: HostLimiterOptions) {
    this.perHost = Math.max(1, Math.floor(options.perHost));
    this.delayMs = Math.max(0, options.delayMs);
  }

  async run<T>(url: string, fn: () => Promise<T>, delayMs = this.delayMs): Promise<T> {
    const host = hostOf(url);
    const state = this.stateOf(host);
    await this.acquire(state, Math.max(0, delayMs));
    try {
      return await fn();
    } finally {
      this.release(host, state);
    }
  }

  private stateOf(host: string): HostState {
    let state = this.hosts.get(host);
    if (!state) {
      state = { active: 0, nextStart: 0, waiting: [] };
      this.hosts.set(host, state);
    }
    return state;
  }

  /** Takes a slot (queueing FIFO when none is free), then waits for this request's start time. */
  private async acquire(state: HostState, delayMs: number): Promise<void> {
    if (state.active < this.perHost && state.waiting.length === 0) state.active++;
    else await new Promise<void>((resolve) => state.waiting.push(resolve)); // release hands its slot over
    // Reserve the start time now so that concurrent callers space themselves out.
    const now = Date.now();
    const start = Math.max(now, state.nextStart);
    state.nextStart = start + delayMs;
    if (start > now) await new Promise((resolve) => setTimeout(resolve, start - now));
  }

  private release(host: string, state: HostState): void {
    const next = state.waiting.shift();
    if (next) {
      next(); // the slot passes to the next caller directly, so nobody can overtake it
      return;
    }
    state.active--;
    // Forget idle hosts whose spacing has elapsed, so the map does not grow with every site seen.
    if (state.active === 0 && state.nextStart <= Date.now()) this.hosts.delete(host);
  }
}
