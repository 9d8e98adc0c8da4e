// Deleted conversations: hidden at once, their rows purged by the housekeeping job only after
// PARLEY_DELETED_RETENTION_DAYS, in every workspace, and nothing else.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { jobNamed } from '../../src/jobs/registry.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { testClock } from '../support/clock.js';
import { expectStatus } from '../support/security.js';
import { type Event, interaction, say, setupAgent } from './support.js';

describe('purging deleted conversations', () => {
  let t: TestApp;
  const clock = testClock();
  before(async () => {
    t = await startTestApp({ clock, env: { PARLEY_DELETED_RETENTION_DAYS: '30' } });
  });
  after(() => t.close());

  const rows = async (ids: string[]) => {
    const result = await t.ports.db.execute(sql`SELECT count(*)::int AS n FROM conversation_events WHERE conversation_id IN (${sql.join(ids.map((id) => sql`${id}::uuid`), sql`, `)})`);
    return (result as unknown as { rows: { n: number }[] }).rows[0]!.n;
  };

  it('keeps a deleted conversation for the retention, then the job deletes it with its events', async () => {
    const one = await setupAgent(t);
    const two = await setupAgent(t);
    const [a] = (await say(t, one.w.key, { content: 'How do I reset my password?', botId: one.agentId })) as [Event];
    const [b] = (await say(t, two.w.key, { content: 'How do I reset my password?', botId: two.agentId })) as [Event];
    const [kept] = (await say(t, two.w.key, { content: 'Hello', botId: two.agentId })) as [Event];
    await expectStatus(t, 200, 'DELETE', interaction(a.interactionId), one.w.key);
    await expectStatus(t, 200, 'DELETE', interaction(b.interactionId), two.w.key);
    const ids = [a.interactionId, b.interactionId];
    const run = () => jobNamed('conversations.purge').handler({ ports: t.ports, id: 'test', retryCount: 0, signal: new AbortController().signal, log: t.ports.log } as never, {});
    await run();
    assert.equal(await rows(ids), 4, 'within the retention nothing is purged');
    clock.advance(31 * 24 * 3600 * 1000);
    await run();
    assert.equal(await rows(ids), 0);
    await expectStatus(t, 200, 'GET', interaction(kept.interactionId), two.w.readKey);
  });
});
