// Widget conversations nobody wrote in are deleted by the housekeeping job after
// PARLEY_DELETED_RETENTION_DAYS (their tokens stop working); started ones stay, and keep no copy
// of the start's user attributes (the conversation holds them).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { jobNamed } from '../../src/jobs/registry.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { testClock } from '../support/clock.js';
import { assertError } from '../support/security.js';
import { eventsOf, expectVisit, send, setupWidget, start, visit, type VisitorEvents } from './support.js';

describe('purging widget conversations never written in', () => {
  let t: TestApp;
  const clock = testClock();
  before(async () => {
    t = await startTestApp({ clock, env: { PARLEY_DELETED_RETENTION_DAYS: '30' } });
  });
  after(() => t.close());

  const storedAttributes = async (id: string) => {
    const result = await t.ports.db.execute(sql`SELECT user_attributes FROM widget_conversations WHERE id = ${id}::uuid`);
    return (result as unknown as { rows: { user_attributes: unknown }[] }).rows[0]?.user_attributes;
  };

  it('deletes unstarted ones after the retention and keeps started ones', async () => {
    const s = await setupWidget(t);
    const idle = await start(t, s.widget.key, { userAttributes: { email: 'idle@example.com' } });
    const used = await start(t, s.widget.key, { userAttributes: { email: 'used@example.com' } });
    await send(t, s.widget.key, used, 'How do I reset my password?');
    assert.deepEqual(await storedAttributes(used.conversationId), {});
    assert.deepEqual(await storedAttributes(idle.conversationId), { email: 'idle@example.com' });

    const run = () => jobNamed('widget.purge').handler({ ports: t.ports, id: 'test', retryCount: 0, signal: new AbortController().signal, log: t.ports.log } as never, {});
    await run();
    await expectVisit<VisitorEvents>(t, 200, 'GET', eventsOf(idle.conversationId), { key: s.widget.key, token: idle.visitorToken });
    clock.advance(31 * 24 * 3600 * 1000);
    await run();
    assertError(await visit(t, 'GET', eventsOf(idle.conversationId), { key: s.widget.key, token: idle.visitorToken }), 404);
    assert.equal(await storedAttributes(idle.conversationId), undefined);
    const kept = await expectVisit<VisitorEvents>(t, 200, 'GET', eventsOf(used.conversationId), { key: s.widget.key, token: used.visitorToken });
    assert.equal(kept.events.length, 2);
  });
});
