// The embedded database's thread is down (db/pglite-thread.ts raises it; http/error-renderer.ts
// answers it with 503).

/**
 * The embedded database is down: its thread stopped and is restarting (a folder), or stopped for
 * good (an in-memory database cannot come back). Routes answer 503 with Retry-After; jobs retry.
 */
export class DatabaseUnavailableError extends Error {
  constructor(
    message: string,
    /** Whether it comes back by itself (a folder's thread restarts; an in-memory database does not). */
    readonly restarting = true,
  ) {
    super(message);
    this.name = 'DatabaseUnavailableError';
  }
}

/** `error`, or the error it wraps (drizzle wraps a driver's error as its cause), if it is one. */
export function databaseUnavailable(error: unknown): DatabaseUnavailableError | undefined {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth += 1) {
    if (e instanceof DatabaseUnavailableError) return e;
  }
  return undefined;
}
