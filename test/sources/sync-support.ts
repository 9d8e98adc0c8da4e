// What the scheduled re-sync tests share: the documented spreading rule computed on its own, the
// PATCH helper, and the moves of the frozen clock that make a source's schedule run.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { CronExpressionParser } from 'cron-parser';
import type { TestApp } from '../support/app.js';
import { type FrozenClock, SEND_IT } from '../support/frozen-clock.js';
import { poll } from '../support/poll.js';
import { expectStatus } from '../support/security.js';
import type { Source } from '../support/sources.js';

/** The job each source's schedule runs. */
export const SYNC_JOB = 'sources.sync';

/** docs/sources.md: n = the first four bytes of SHA-256(source id); minute n mod 60, hour (n div 60) mod 24, weekday (n div 1440) mod 7. */
export function spreadOf(id: string): { n: number; minute: number; hour: number; weekday: number } {
  const n = createHash('sha256').update(id).digest().readUInt32BE(0);
  return { n, minute: n % 60, hour: Math.floor(n / 60) % 24, weekday: Math.floor(n / 1440) % 7 };
}

/** The cron expression of a preset for a source, by the documented rule. */
export function presetCron(id: string, preset: 'hourly' | 'daily' | 'weekly'): string {
  const { minute, hour, weekday } = spreadOf(id);
  return { hourly: `${minute} * * * *`, daily: `${minute} ${hour} * * *`, weekly: `${minute} ${hour} * * ${weekday}` }[preset];
}

/** The first cron time of `cron` (UTC) strictly after `after`. */
export function nextCron(cron: string, after: Date): Date {
  return CronExpressionParser.parse(cron, { tz: 'UTC', currentDate: after }).next().toDate();
}

export async function patchSource(t: TestApp, key: string, id: string, syncInterval: string | null): Promise<Source> {
  return expectStatus<Source>(t, 200, 'PATCH', `/v2/documents/public/${id}`, key, { syncInterval });
}

/** Waits until no reconciliation of schedules is left in the queue (each change queues one in its transaction). */
export async function settleSchedules(t: TestApp): Promise<void> {
  await poll(
    async () => {
      t.wakeWorkers('sources.sync-schedule');
      return (await t.queue.depth()).filter((d) => d.name === 'sources.sync-schedule');
    },
    (left) => left.length === 0,
    { what: 'the re-sync schedules to be reconciled', intervalMs: 50 },
  );
}

/** The source's schedule as pg-boss holds it: its cron expression, payload and start delay, or null. */
export async function scheduleOf(t: TestApp, id: string): Promise<{ cron: string; data: unknown; startAfter: number } | null> {
  const row = await t.queue.engine.getSchedule(SYNC_JOB, id);
  if (!row) return null;
  const startAfter = (row.options as { startAfter?: number } | undefined)?.startAfter ?? 0;
  return { cron: row.cron, data: row.data, startAfter };
}

/** The outcomes of the runs of a source's schedule so far (the job's log line). */
export function runsOf(t: TestApp, id: string): string[] {
  return t.logs.filter((l) => l.msg === 'scheduled re-sync of a source' && l.sourceId === id).map((l) => String(l.outcome));
}

/**
 * Jumps the frozen clock to one second after the next cron time of the source's schedule, firing
 * nothing yet: `finishRun` runs the cron pass there.
 */
export async function armRun(t: TestApp, f: FrozenClock, id: string): Promise<Date> {
  const schedule = await scheduleOf(t, id);
  assert.ok(schedule, `source ${id} has a schedule`);
  const occurrence = nextCron(schedule.cron, f.now());
  await f.jumpTo(new Date(occurrence.getTime() + 1000));
  return occurrence;
}

/**
 * Lets an armed run happen: pg-boss's cron pass fires (the timers that came due), finds the
 * occurrence due and files it; its send-it worker and the `sources.sync` worker are woken, so the
 * job is sent and runs at that same frozen time (after the schedule's start delay, when it has
 * one: the clock moves by it once the job is sent). Answers the run's outcome.
 */
export async function finishRun(t: TestApp, f: FrozenClock, id: string): Promise<string> {
  const before = runsOf(t, id).length;
  const schedule = await scheduleOf(t, id);
  await f.queue.tick(0);
  if (schedule && schedule.startAfter > 0) {
    await poll(
      async () => {
        f.wake([SEND_IT]);
        return t.queue.engine.findJobs(SYNC_JOB, { data: { sourceId: id }, queued: true });
      },
      (jobs) => jobs.length > 0,
      { what: `the job of the schedule of source ${id} to be sent`, intervalMs: 50 },
    );
    await f.moveTo(new Date(f.now().getTime() + schedule.startAfter * 1000));
  }
  const runs = await poll(
    () => {
      f.wake([SEND_IT, SYNC_JOB]);
      return runsOf(t, id);
    },
    (seen) => seen.length > before,
    { what: `a run of the schedule of source ${id}`, intervalMs: 50 },
  );
  return runs[runs.length - 1]!;
}

/** One run of the source's schedule at its next occurrence; answers its outcome. */
export async function runSchedule(t: TestApp, f: FrozenClock, id: string): Promise<string> {
  await armRun(t, f, id);
  return finishRun(t, f, id);
}
