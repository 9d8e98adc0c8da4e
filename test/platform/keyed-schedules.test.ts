// JobQueue.scheduleFor / unscheduleFor: one pg-boss schedule of a job per record, fired by pg-boss's
// own cron pass under a frozen clock (test/support/frozen-clock.ts), each run with its record's payload.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { registered } from '../../src/jobs/job.js';
import { jobRegistry } from '../../src/jobs/registry.js';
import { type TestApp, startTestApp } from '../support/app.js';
import { frozenClock, type FrozenClock, SEND_IT } from '../support/frozen-clock.js';
import { poll } from '../support/poll.js';
import { keyedJob, keyedRuns } from '../fixtures/test-jobs.js';

const MINUTE = 60_000;

describe('keyed schedules', () => {
  let t: TestApp;
  let f: FrozenClock;
  let start: number;
  before(async () => {
    f = frozenClock(() => t.queue.engine);
    start = f.now().getTime();
    t = await startTestApp({ work: true, jobs: [...jobRegistry, registered(keyedJob)], clock: f.clock, queueClock: f.queue });
  });
  after(() => t.close());

  /** Moves to `minutes` after the start plus a second: the cron pass files what is due, and pg-boss's send-it worker is woken to send it. */
  const passAt = async (minutes: number) => {
    await f.moveTo(new Date(start + minutes * MINUTE + 1000));
    f.wake([SEND_IT]);
  };
  const runsUntil = (count: number) =>
    poll(
      () => {
        f.wake([SEND_IT, 'test.keyed']);
        return [...keyedRuns];
      },
      (runs) => runs.length >= count,
      { what: `${count} runs of test.keyed` },
    );

  it('runs each record on its own expression with its own payload, delayed by its start delay', async () => {
    await t.queue.scheduleFor('test.keyed', 'record-a', '10 * * * *', { record: 'a' });
    await t.queue.scheduleFor('test.keyed', 'record-b', '20 * * * *', { record: 'b' }, { startAfterSeconds: 90 });
    const row = await t.queue.engine.getSchedule('test.keyed', 'record-b');
    assert.deepEqual([row?.cron, row?.timezone, row?.data, (row?.options as { startAfter?: number }).startAfter], ['20 * * * *', 'UTC', { record: 'b' }, 90]);

    await passAt(10);
    assert.deepEqual(await runsUntil(1), [{ record: 'a', at: new Date(start + 10 * MINUTE + 1000).toISOString() }]);
    // b's job is sent at 20:01 and due 90 s later.
    await passAt(20);
    const [sent] = await poll(
      () => {
        f.wake([SEND_IT]);
        return t.queue.engine.findJobs('test.keyed', { data: { record: 'b' } });
      },
      (jobs) => jobs.length > 0,
      { what: "b's job to be sent" },
    );
    assert.deepEqual([sent?.state, sent?.startAfter.toISOString()], ['created', new Date(start + 20 * MINUTE + 91_000).toISOString()]);
    await f.moveTo(new Date(start + 20 * MINUTE + 91_000));
    assert.deepEqual((await runsUntil(2))[1], { record: 'b', at: new Date(start + 20 * MINUTE + 91_000).toISOString() });
  });

  it('scheduling a key again replaces its schedule; unscheduling stops it; other keys stay', async () => {
    const before = keyedRuns.length;
    await t.queue.scheduleFor('test.keyed', 'record-a', '40 * * * *', { record: 'a2' });
    await t.queue.unscheduleFor('test.keyed', 'record-b');
    await t.queue.unscheduleFor('test.keyed', 'record-none');
    assert.equal(await t.queue.engine.getSchedule('test.keyed', 'record-b'), null);
    await passAt(70); // 10 past the next hour: a's old minute
    await passAt(80); // b's minute
    await passAt(100); // a's new minute
    const runs = await runsUntil(before + 1);
    assert.deepEqual(runs.slice(before), [{ record: 'a2', at: new Date(start + 100 * MINUTE + 1000).toISOString() }]);
    assert.deepEqual(await t.queue.engine.findJobs('test.keyed', { queued: true }), [], 'nothing else was sent');
    await t.queue.unscheduleFor('test.keyed', 'record-a');
  });

  it('refuses a payload its job would refuse, an empty key and an unknown job', async () => {
    await assert.rejects(t.queue.scheduleFor('test.keyed', 'record-c', '0 * * * *', { record: 1 } as never), /expected string/);
    await assert.rejects(t.queue.scheduleFor('test.keyed', '', '0 * * * *', { record: 'c' }), /needs a key/);
    await assert.rejects(t.queue.scheduleFor('test.nothing' as never, 'k', '0 * * * *', {} as never), /is not registered/);
    assert.equal(await t.queue.engine.getSchedule('test.keyed', 'record-c'), null);
  });
});
