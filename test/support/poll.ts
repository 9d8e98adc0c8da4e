import { inspect } from 'node:util';

export interface PollOptions {
  /** What is awaited, for the failure message ("source 1234 to finish"); a function is read on failure. */
  what: string | (() => string);
  /** Give up after this long (default 20 s). */
  timeoutMs?: number;
  /** Pause between two calls of `fn` (default 50 ms). */
  intervalMs?: number;
}

/**
 * Calls `fn` until `until(value)` holds and returns that value, as a client polling a record
 * would. Fails after `timeoutMs` with what it waited for and the last value seen.
 */
export async function poll<T>(fn: () => T | Promise<T>, until: (value: T) => boolean, options: PollOptions): Promise<T> {
  const { what, timeoutMs = 20_000, intervalMs = 50 } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (until(value)) return value;
    if (Date.now() >= deadline) {
      const last = inspect(value, { depth: 4, breakLength: Infinity, maxStringLength: 500 });
      const waitedFor = typeof what === 'function' ? what() : what;
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${waitedFor}; last value: ${last.slice(0, 4000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
