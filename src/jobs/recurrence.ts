import { createHash } from 'node:crypto';
import { CronExpressionParser } from 'cron-parser';
import { z } from 'zod';

/**
 * A recurrence as users give it: `off`, `hourly`, `daily`, `weekly`, or a five-field cron
 * expression in UTC. `scheduleOf(recurrence, key)` turns it into what a keyed schedule of the
 * queue runs (`JobQueue.scheduleFor`): the presets get a minute (and for `daily` an hour, for
 * `weekly` also a weekday) derived from the record's key, and a cron expression a start offset
 * within its hour, so a thousand records on one recurrence do not start in the same minute.
 * Pure: used by the sources module (scheduled re-sync) and by any module that schedules per record.
 */

export const RECURRENCE_PRESETS = ['off', 'hourly', 'daily', 'weekly'] as const;

/** Occurrences of a cron expression must be at least this far apart. */
export const MIN_PERIOD_SECONDS = 5 * 60;
/** A failing record's back-off grows to at most this (or its period, when longer). */
export const MAX_BACKOFF_SECONDS = 7 * 24 * 3600;

const HOUR = 3600;
const PRESET_PERIOD: Record<'hourly' | 'daily' | 'weekly', number> = { hourly: HOUR, daily: 24 * HOUR, weekly: 7 * 24 * HOUR };
/** Occurrences read to find a cron expression's period (its shortest gap). */
const PERIOD_SAMPLES = 24;
/** A fixed start for that walk, so a period is the same whenever it is computed. */
const PERIOD_FROM = new Date('2024-01-01T00:00:00Z');

/** What a keyed schedule runs for a recurrence that is not `off`. */
export interface RecurrenceSchedule {
  /** The cron expression (UTC) the queue's schedule fires on. */
  readonly cron: string;
  /** Each occurrence starts this many seconds after the cron time (spreads a user's expression). */
  readonly offsetSeconds: number;
  /** The shortest time between two occurrences. */
  readonly periodSeconds: number;
  /**
   * A preset's runs as arithmetic (what `cron` says): `intoSeconds` after the start of each hour,
   * day, or week (Sunday 00:00 UTC), so its next run needs no cron walk.
   */
  readonly preset?: { readonly unit: 'hour' | 'day' | 'week'; readonly intoSeconds: number };
}

/** A recurrence in its stored form: presets as they are, a cron expression with single spaces. */
export function normalizeRecurrence(value: string): string {
  return value.trim().split(/\s+/).join(' ');
}

const periods = new Map<string, number>();

/** The shortest gap between the next occurrences of a valid cron expression, in seconds (cached). */
function cronPeriod(cron: string): number {
  const known = periods.get(cron);
  if (known !== undefined) return known;
  const interval = CronExpressionParser.parse(cron, { tz: 'UTC', strict: false, currentDate: PERIOD_FROM });
  let previous = interval.next().getTime();
  let shortest = Infinity;
  for (let i = 0; i < PERIOD_SAMPLES; i++) {
    const next = interval.next().getTime();
    shortest = Math.min(shortest, (next - previous) / 1000);
    previous = next;
  }
  if (periods.size > 1000) periods.clear();
  periods.set(cron, shortest);
  return shortest;
}

/** Why a recurrence is not accepted (one sentence), or null when it is. */
export function recurrenceProblem(value: string): string | null {
  const recurrence = normalizeRecurrence(value);
  if ((RECURRENCE_PRESETS as readonly string[]).includes(recurrence)) return null;
  const expected = 'off, hourly, daily, weekly, or a cron expression of five fields (minute hour day-of-month month day-of-week, UTC)';
  if (recurrence.split(' ').length !== 5) return `expected ${expected}, got "${value.slice(0, 100)}"`;
  let period: number;
  try {
    period = cronPeriod(recurrence);
  } catch (error) {
    return `not a valid cron expression: ${(error as Error).message} (expected ${expected})`;
  }
  if (period < MIN_PERIOD_SECONDS) {
    return `"${recurrence}" runs ${humanDuration(period)} apart; the shortest interval is ${humanDuration(MIN_PERIOD_SECONDS)}`;
  }
  return null;
}

/** A recurrence on the wire: checked, answered in its stored form; a 400 names the field and why. */
export const recurrenceSchema = z
  .string()
  .max(200)
  // overwrite, not transform: the value keeps its type, and the OpenAPI document its examples.
  .overwrite(normalizeRecurrence)
  .superRefine((value, ctx) => {
    const problem = recurrenceProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .describe('`off`, `hourly`, `daily`, `weekly`, or a five-field cron expression in UTC (at least 5 minutes apart)')
  .meta({ examples: ['daily', '0 6 * * 1-5'] });

/** A stable number of a record's key: where in the hour (day, week) its runs fall. */
function spreadOf(key: string): number {
  return createHash('sha256').update(key).digest().readUInt32BE(0);
}

/**
 * The schedule a record runs on, or null for `off`. `hourly` runs at minute m of every hour,
 * `daily` at m past hour h, `weekly` at m past h on weekday d, each derived from the key
 * (SHA-256 of it, first four bytes as n: m = n mod 60, h = (n div 60) mod 24, d = (n div 1440) mod 7).
 * A cron expression runs as given, each run started n mod min(3600, period) seconds late.
 */
export function scheduleOf(recurrence: string, key: string): RecurrenceSchedule | null {
  if (recurrence === 'off') return null;
  const n = spreadOf(key);
  const [minute, hour, weekday] = [n % 60, Math.floor(n / 60) % 24, Math.floor(n / 1440) % 7];
  switch (recurrence) {
    case 'hourly':
      return { cron: `${minute} * * * *`, offsetSeconds: 0, periodSeconds: PRESET_PERIOD.hourly, preset: { unit: 'hour', intoSeconds: minute * 60 } };
    case 'daily':
      return { cron: `${minute} ${hour} * * *`, offsetSeconds: 0, periodSeconds: PRESET_PERIOD.daily, preset: { unit: 'day', intoSeconds: (hour * 60 + minute) * 60 } };
    case 'weekly':
      return {
        cron: `${minute} ${hour} * * ${weekday}`,
        offsetSeconds: 0,
        periodSeconds: PRESET_PERIOD.weekly,
        preset: { unit: 'week', intoSeconds: ((weekday * 24 + hour) * 60 + minute) * 60 },
      };
  }
  const periodSeconds = cronPeriod(recurrence);
  return { cron: recurrence, offsetSeconds: n % Math.min(HOUR, periodSeconds), periodSeconds };
}

/**
 * The first run of a schedule (cron time plus offset) strictly after `after`. A preset's is
 * counted from the start of its period (about 1 µs; a cron walk costs 50-500 µs, too much for every
 * record of a listing).
 */
export function nextRun(schedule: RecurrenceSchedule, after: Date): Date {
  if (schedule.preset) {
    const t = after.getTime();
    const day = Math.floor(t / 86_400_000) * 86_400_000;
    const start = { hour: Math.floor(t / 3_600_000) * 3_600_000, day, week: day - new Date(day).getUTCDay() * 86_400_000 }[schedule.preset.unit];
    const run = start + schedule.preset.intoSeconds * 1000;
    return new Date(run > t ? run : run + schedule.periodSeconds * 1000);
  }
  const from = after.getTime() - schedule.offsetSeconds * 1000;
  return new Date(cronTimeAfter(schedule.cron, from) + schedule.offsetSeconds * 1000);
}

/**
 * Cron times of an expression from the start of an hour on, as they are walked: the records of a
 * listing that share an expression ask for the next time after nearly the same instant (now, less
 * their offsets of under an hour), so one walk answers them all.
 */
const walks = new Map<string, { next: () => number; times: number[] }>();

/** The first cron time (UTC) of a valid expression strictly after `from` (ms). */
function cronTimeAfter(cron: string, from: number): number {
  const hour = Math.floor(from / 3_600_000) * 3_600_000 - 3_600_000;
  const key = `${cron}@${hour}`;
  let walk = walks.get(key);
  if (!walk) {
    if (walks.size > 200) walks.clear();
    const interval = CronExpressionParser.parse(cron, { tz: 'UTC', strict: false, currentDate: new Date(hour) });
    walk = { next: () => interval.next().getTime(), times: [] };
    walks.set(key, walk);
  }
  for (const time of walk.times) if (time > from) return time;
  for (;;) {
    const time = walk.next();
    walk.times.push(time);
    if (time > from) return time;
  }
}

/**
 * How long a record that failed `failures` times in a row waits after its last run before the
 * next: nothing extra after one failure (the next run as usual), then twice the period, four
 * times, ... up to `MAX_BACKOFF_SECONDS` (or the period, when longer).
 */
export function backoffSeconds(schedule: Pick<RecurrenceSchedule, 'periodSeconds'>, failures: number): number {
  if (failures <= 0) return 0;
  const { periodSeconds } = schedule;
  return Math.min(periodSeconds * 2 ** Math.min(failures - 1, 30), Math.max(periodSeconds, MAX_BACKOFF_SECONDS));
}

/**
 * The earliest time a record backing off may run again, or null when it is not backing off. Half a
 * period early counts as on time: a run starts a little after its cron time (the queue's pass, the
 * worker's poll), so the occurrence `backoff` after the last run must not miss by that little.
 */
export function backoffUntil(schedule: RecurrenceSchedule, failures: number, lastRunAt: Date | null): Date | null {
  if (failures < 2 || !lastRunAt) return null;
  return new Date(lastRunAt.getTime() + (backoffSeconds(schedule, failures) - schedule.periodSeconds / 2) * 1000);
}

/** A duration as a person reads it: `45 minutes`, `4 hours`, `2 days` (`30 seconds` under a minute). */
export function humanDuration(seconds: number): string {
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (seconds < 60) return unit(seconds, 'second');
  if (seconds % 86400 === 0) return unit(seconds / 86400, 'day');
  if (seconds % 3600 === 0) return unit(seconds / 3600, 'hour');
  return unit(Math.round(seconds / 60), 'minute');
}
