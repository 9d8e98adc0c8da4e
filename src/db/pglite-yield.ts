import { setImmediate as nextTurn } from 'node:timers/promises';
import type { PGlite } from '@electric-sql/pglite';

/** How long queries may run one after another before the event loop gets a turn. */
const HOLD_MS = 10;

/**
 * PGlite runs each query synchronously on the event loop, and a query waiting for its lock starts
 * in a microtask the moment the previous one ends. Queued queries (jobs, requests, the job queue)
 * therefore ran back to back without a turn of the event loop: during a burst of jobs no request
 * was read and no timer fired for seconds. Once queries have run HOLD_MS without a turn, the next
 * one waits for one after taking the lock, so a stall is about one query long, not a queue of them.
 */
export function yieldBetweenQueries(pglite: PGlite): void {
  const exclusive = pglite._runExclusiveQuery.bind(pglite);
  let lastTurn = performance.now();
  pglite._runExclusiveQuery = <T>(fn: () => Promise<T>): Promise<T> =>
    exclusive(async () => {
      if (performance.now() - lastTurn > HOLD_MS) {
        await nextTurn();
        lastTurn = performance.now();
      }
      return fn();
    });
}
