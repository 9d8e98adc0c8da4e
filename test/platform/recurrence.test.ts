// Recurrences of keyed schedules (src/jobs/recurrence.ts): what is accepted, the schedule a key
// runs on, how a thousand keys spread over the hour and the day, the back-off of a failing record.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backoffSeconds, backoffUntil, humanDuration, nextRun, recurrenceProblem, recurrenceSchema, scheduleOf } from '../../src/jobs/recurrence.js';

const KEY = '11111111-1111-4111-8111-111111111111';
const HOUR = 3600;

describe('recurrences', () => {
  it('accepts the presets and five-field cron expressions, in their stored form', () => {
    for (const value of ['off', 'hourly', 'daily', 'weekly', '0 6 * * 1-5', '*/15 * * * *', '30 2 1 * *', '0 9 * * MON-FRI']) {
      assert.equal(recurrenceProblem(value), null, value);
    }
    assert.equal(recurrenceSchema.parse('  0   6 * *   1-5 '), '0 6 * * 1-5');
    assert.equal(recurrenceSchema.parse('daily'), 'daily');
  });

  it('names what is wrong with anything else', () => {
    const expected = 'off, hourly, daily, weekly, or a cron expression of five fields (minute hour day-of-month month day-of-week, UTC)';
    assert.equal(recurrenceProblem('Daily'), `expected ${expected}, got "Daily"`);
    assert.equal(recurrenceProblem('@daily'), `expected ${expected}, got "@daily"`);
    assert.equal(recurrenceProblem('0 0 6 * * *'), `expected ${expected}, got "0 0 6 * * *"`);
    assert.equal(recurrenceProblem('61 * * * *'), `not a valid cron expression: Constraint error, got value 61 expected range 0-59 (expected ${expected})`);
    assert.equal(recurrenceProblem('0 0 30 2 *'), `not a valid cron expression: Invalid explicit day of month definition (expected ${expected})`);
    assert.equal(recurrenceProblem('*/2 * * * *'), '"*/2 * * * *" runs 2 minutes apart; the shortest interval is 5 minutes');
    // Every 7 minutes comes back 4 minutes after :56.
    assert.equal(recurrenceProblem('*/7 * * * *'), '"*/7 * * * *" runs 4 minutes apart; the shortest interval is 5 minutes');
    const parsed = recurrenceSchema.safeParse('every day');
    assert.equal(parsed.success, false);
    assert.equal(parsed.error!.issues[0]!.message, `expected ${expected}, got "every day"`);
  });

  it('puts a key at a minute (hour, weekday) of its own, from the SHA-256 of the key', () => {
    // sha256(KEY) starts with 0xbd7673a5 = 3178652325: minute 45, hour 10, weekday 3, 3525 s into the hour.
    assert.equal(scheduleOf('off', KEY), null);
    assert.deepEqual(scheduleOf('hourly', KEY), { cron: '45 * * * *', offsetSeconds: 0, periodSeconds: HOUR, preset: { unit: 'hour', intoSeconds: 45 * 60 } });
    assert.deepEqual(scheduleOf('daily', KEY), { cron: '45 10 * * *', offsetSeconds: 0, periodSeconds: 24 * HOUR, preset: { unit: 'day', intoSeconds: 10 * HOUR + 45 * 60 } });
    assert.deepEqual(scheduleOf('weekly', KEY), {
      cron: '45 10 * * 3',
      offsetSeconds: 0,
      periodSeconds: 7 * 24 * HOUR,
      preset: { unit: 'week', intoSeconds: 3 * 24 * HOUR + 10 * HOUR + 45 * 60 },
    });
    // A cron expression runs as given, each run started late by the key's place in the hour (or period).
    assert.deepEqual(scheduleOf('0 6 * * 1-5', KEY), { cron: '0 6 * * 1-5', offsetSeconds: 3525, periodSeconds: 24 * HOUR });
    assert.deepEqual(scheduleOf('*/15 * * * *', KEY), { cron: '*/15 * * * *', offsetSeconds: 825, periodSeconds: 900 });
  });

  it('spreads a thousand keys over the hour and the day', () => {
    const keys = Array.from({ length: 1000 }, (_, i) => `source-${i}`);
    const count = (slots: string[]) => {
      const counts = new Map<string, number>();
      for (const slot of slots) counts.set(slot, (counts.get(slot) ?? 0) + 1);
      return { slots: counts.size, most: Math.max(...counts.values()) };
    };
    // Hourly: every minute of the hour used, at most 28 sources in one (16.7 on average).
    assert.deepEqual(count(keys.map((k) => scheduleOf('hourly', k)!.cron)), { slots: 60, most: 28 });
    // Daily: 725 of the day's 1,440 minutes, at most 5 sources in one.
    assert.deepEqual(count(keys.map((k) => scheduleOf('daily', k)!.cron)), { slots: 725, most: 5 });
    // A cron expression: one start time, spread by the offset over its hour (by the minute: at most 27).
    assert.deepEqual(count(keys.map((k) => String(Math.floor(scheduleOf('0 3 * * *', k)!.offsetSeconds / 60)))), { slots: 60, most: 27 });
  });

  it("gives a preset's next run as its cron expression does, counted instead of walked", () => {
    const keys = Array.from({ length: 300 }, (_, i) => `key-${i}`);
    const times = ['2026-03-04T10:50:00Z', '2026-03-07T23:59:59.999Z', '2026-03-08T00:00:00Z', '2026-12-31T23:45:00Z'].map((x) => new Date(x));
    for (const preset of ['hourly', 'daily', 'weekly']) {
      for (const key of keys) {
        const schedule = scheduleOf(preset, key)!;
        for (const at of [...times, new Date(nextRun(schedule, times[0]!))]) {
          assert.equal(nextRun(schedule, at).toISOString(), nextRun({ ...schedule, preset: undefined }, at).toISOString(), `${preset} ${key} after ${at.toISOString()}`);
        }
      }
    }
  });

  it('gives the next run after a time, offset included', () => {
    const at = new Date('2026-03-04T10:50:00Z'); // a Wednesday
    assert.equal(nextRun(scheduleOf('hourly', KEY)!, at).toISOString(), '2026-03-04T11:45:00.000Z');
    assert.equal(nextRun(scheduleOf('daily', KEY)!, at).toISOString(), '2026-03-05T10:45:00.000Z');
    assert.equal(nextRun(scheduleOf('weekly', KEY)!, at).toISOString(), '2026-03-11T10:45:00.000Z');
    // 06:00 on weekdays, 3,525 s late: 06:58:45; the Friday run is the next after Thursday's.
    const weekdays = scheduleOf('0 6 * * 1-5', KEY)!;
    assert.equal(nextRun(weekdays, at).toISOString(), '2026-03-05T06:58:45.000Z');
    assert.equal(nextRun(weekdays, new Date('2026-03-05T06:58:45Z')).toISOString(), '2026-03-06T06:58:45.000Z');
    // A run whose cron time passed but whose offset has not is still ahead.
    assert.equal(nextRun(weekdays, new Date('2026-03-05T06:30:00Z')).toISOString(), '2026-03-05T06:58:45.000Z');
  });

  it('backs a failing record off: the usual run after one failure, then 2, 4, 8... periods, at most a week', () => {
    const hourly = scheduleOf('hourly', KEY)!;
    assert.deepEqual([0, 1, 2, 3, 4, 8, 9, 40].map((n) => backoffSeconds(hourly, n) / HOUR), [0, 1, 2, 4, 8, 128, 168, 168]);
    const weekly = scheduleOf('weekly', KEY)!;
    assert.deepEqual([1, 2, 5].map((n) => backoffSeconds(weekly, n) / HOUR), [168, 168, 168]);
    const last = new Date('2026-03-04T10:45:07Z');
    assert.equal(backoffUntil(hourly, 1, last), null);
    assert.equal(backoffUntil(hourly, 3, null), null);
    // Half a period early counts: the run at 14:45 is the one four hours after 10:45:07.
    assert.equal(backoffUntil(hourly, 3, last)!.toISOString(), '2026-03-04T14:15:07.000Z');
    assert.equal(nextRun(hourly, backoffUntil(hourly, 3, last)!).toISOString(), '2026-03-04T14:45:00.000Z');
    assert.deepEqual([300, 2700, 3600, 7200, 86400, 172800].map(humanDuration), ['5 minutes', '45 minutes', '1 hour', '2 hours', '1 day', '2 days']);
  });
});
