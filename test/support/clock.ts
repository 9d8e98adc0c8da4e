import type { Clock } from '../../src/clock.js';

/** A clock a test moves forward: real time plus every `advance` so far. */
export interface TestClock extends Clock {
  /**
   * Moves the clock forward (1 ms by default): whatever the app stamps next is strictly later than
   * what it stamped before, without sleeping (timestamps have millisecond resolution).
   */
  advance(ms?: number): void;
}

/** A clock for `startTestApp({ clock })`. */
export function testClock(): TestClock {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    advance: (ms = 1) => {
      offset += ms;
    },
  };
}
