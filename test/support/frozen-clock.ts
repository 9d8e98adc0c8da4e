import { type PgBoss, TestClock } from 'pg-boss';
import type { Clock } from '../../src/clock.js';

/**
 * One frozen time for the app and its queue: Parley's clock (`startTestApp({ clock })`) reads
 * pg-boss's TestClock (`startTestApp({ queueClock })`), whose SQL (`job_now()`) reads it too. Time
 * moves only when the test moves it; the queue's timers (worker polls, the schedules' cron pass)
 * fire only then, so a test wakes the workers it waits for (`t.wakeWorkers`).
 *
 * It starts at a UTC midnight at least a day ahead of real time: jobs Parley enqueues on its own
 * connection on PostgreSQL are stamped with the server's real time, and must already be due at
 * the frozen one.
 */
export interface FrozenClock {
  /** For `startTestApp({ clock })`. */
  readonly clock: Clock;
  /** For `startTestApp({ queueClock })`. */
  readonly queue: TestClock;
  now(): Date;
  /**
   * Moves to `when` (forwards) and fires each of the queue's timers that came due on the way once,
   * as a process that slept would: a schedule whose occurrence lies in the minute before `when` is
   * sent by that cron pass.
   */
  moveTo(when: Date): Promise<void>;
  /** Moves to `when` (forwards) firing nothing yet: the next `moveTo` or `queue.tick` fires what came due. */
  jumpTo(when: Date): Promise<void>;
  /**
   * Wakes the queue's workers of these jobs, pg-boss's own included (`__pgboss__send-it` forwards
   * what the cron pass found due): they fetch at once, at the frozen time, instead of at a poll.
   */
  wake(names: readonly string[]): void;
}

/** pg-boss's internal queue through which the cron pass sends a schedule's job. */
export const SEND_IT = '__pgboss__send-it';

const DAY_MS = 24 * 3600 * 1000;

export function frozenClock(engine: () => PgBoss): FrozenClock {
  const queue = new TestClock(Math.ceil(Date.now() / DAY_MS) * DAY_MS + DAY_MS);
  const jumpTo = async (when: Date) => {
    if (when.getTime() < queue.now()) throw new Error(`the frozen clock only moves forwards (at ${new Date(queue.now()).toISOString()}, asked ${when.toISOString()})`);
    await queue.setTime(when);
  };
  return {
    clock: { now: () => new Date(queue.now()) },
    queue,
    now: () => new Date(queue.now()),
    jumpTo,
    moveTo: async (when) => {
      await jumpTo(when);
      await queue.tick(0);
    },
    wake: (names) => {
      const boss = engine();
      for (const worker of boss.getWipData({ includeInternal: true })) if (names.includes(worker.name)) boss.notifyWorker(worker.id);
    },
  };
}
