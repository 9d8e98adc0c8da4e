// The visitor's event stream (Server-Sent Events) read with fetch and a reader: the agent's reply
// (the built-in engine's, whole: no partials), a person's reply, status changes, Last-Event-ID
// resumption, heartbeats; a reply written through another app on the same database reaches the
// stream (each stream reads the database).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../support/app.js';
import { assertError } from '../support/security.js';
import { say } from '../conversations/support.js';
import { isEvent, isStatus, ORIGIN, OTHER_ORIGIN, openStream, send, setupWidget, start, streamFor, streamOf, type SseReader, type VisitorEvent, type WidgetSetup } from './support.js';

const STREAM_ENV = { PARLEY_WIDGET_STREAM_POLL_MS: '100', PARLEY_WIDGET_HEARTBEAT_SECONDS: '0.2' };

describe('visitor event stream', () => {
  let t: TestApp;
  let s: WidgetSetup;
  const open: SseReader[] = [];
  before(async () => {
    t = await startTestApp({ env: STREAM_ENV });
    s = await setupWidget(t);
  });
  after(async () => {
    for (const reader of open) reader.close();
    await t.close();
  });
  const track = (reader: SseReader) => {
    open.push(reader);
    return reader;
  };

  it("streams the agent's reply, the hand-over, a person's reply and the status changes", async () => {
    const c = await start(t, s.widget.key);
    const stream = track(await streamFor(t, s.widget.key, c));
    assert.equal(stream.status, 200);
    assert.match(stream.headers.get('content-type') ?? '', /^text\/event-stream/);
    assert.equal(stream.headers.get('access-control-allow-origin'), ORIGIN);
    await stream.next(isStatus(null, false));

    const [user, reply] = (await send(t, s.widget.key, c, 'How do I reset my password?')) as [VisitorEvent, VisitorEvent];
    const streamedUser = await stream.next(isEvent('user'));
    assert.deepEqual([streamedUser.id, streamedUser.data], [user.id, user]);
    const streamedReply = await stream.next(isEvent('parleybot', /Forgot password/));
    assert.equal(streamedReply.id, reply.id);
    await stream.next(isStatus('Waiting for Customer', false));
    // The built-in engine's reply arrives whole: no partial answer before it.
    assert.ok(!stream.messages.some((m) => m.event === 'partial' || m.event === 'partial_end'));

    await send(t, s.widget.key, c, 'human please');
    await stream.next(isStatus('Escalated to Human Agent', true));
    await say(t, s.w.key, { interactionId: c.conversationId, role: 'agent', type: 'internal_comment', content: 'note for the team' });
    await say(t, s.w.key, { interactionId: c.conversationId, role: 'agent', content: 'Hi, Sam here.' });
    await stream.next(isEvent('agent', /Sam here/));
    assert.ok(!stream.messages.some((m) => JSON.stringify(m.data).includes('note for the team')));
    await t.request('POST', `/v2/hc-interactions/${c.conversationId}/release/public`, { key: s.w.key });
    await stream.next(isStatus('Escalated to Human Agent', false));
    // Heartbeat comments keep proxies from closing the idle connection.
    await stream.next(() => stream.comments.includes('heartbeat'));
  });

  it('resumes after Last-Event-ID (header or query) with the events that followed', async () => {
    const c = await start(t, s.widget.key);
    const first = await send(t, s.widget.key, c, 'How do I reset my password?');
    const second = await send(t, s.widget.key, c, 'How do I export invoices?');
    const resumed = track(await streamFor(t, s.widget.key, c, { 'last-event-id': first[1]!.id }));
    await resumed.next(isEvent('parleybot', /Download/));
    assert.deepEqual(resumed.messages.filter((m) => m.event === 'event').map((m) => m.id), second.map((e) => e.id));
    const byQuery = track(await openStream(`${t.url}${streamOf(c.conversationId, `?widgetKey=${s.widget.key}&visitorToken=${c.visitorToken}&lastEventId=${second[0]!.id}`)}`, { origin: ORIGIN }));
    await byQuery.next(isEvent('parleybot'));
    assert.deepEqual(byQuery.messages.filter((m) => m.event === 'event').map((m) => m.id), [second[1]!.id]);
    // The token in the query stays out of the logs.
    const logged = JSON.stringify(t.logs);
    assert.ok(!logged.includes(c.visitorToken));
    assert.match(logged, /visitorToken=\[redacted\]/);

    const bad = await fetch(`${t.url}${streamOf(c.conversationId)}`, { headers: { authorization: `Bearer ${s.widget.key}`, origin: ORIGIN, 'x-visitor-token': c.visitorToken, 'last-event-id': 'nope' } });
    assertError({ status: bad.status, body: await bad.json() }, 400, /Last-Event-ID/);
  });

  it('refuses a stream without the right origin or token', async () => {
    const c = await start(t, s.widget.key);
    const url = `${t.url}${streamOf(c.conversationId, `?widgetKey=${s.widget.key}&visitorToken=${c.visitorToken}`)}`;
    for (const headers of [{}, { origin: OTHER_ORIGIN }] as Record<string, string>[]) {
      const res = await fetch(url, { headers });
      assert.equal(res.status, 403);
    }
    const other = await start(t, s.widget.key);
    const wrongToken = await fetch(`${t.url}${streamOf(c.conversationId, `?widgetKey=${s.widget.key}&visitorToken=${other.visitorToken}`)}`, { headers: { origin: ORIGIN } });
    assert.equal(wrongToken.status, 403);
  });

  it("delivers a person's reply written through another app instance on the same database", async () => {
    const sibling = await t.sibling();
    try {
      const c = await start(t, s.widget.key);
      await send(t, s.widget.key, c, 'human please');
      const stream = track(await streamFor(t, s.widget.key, c));
      await stream.next(isStatus('Escalated to Human Agent', true));
      await sibling.request('POST', '/v2/hc-interactions/events/public', { key: s.w.key, body: { interactionId: c.conversationId, role: 'agent', content: 'Hello from the other process' } });
      await stream.next(isEvent('agent', /other process/));
      stream.close();
    } finally {
      await sibling.close();
    }
  });

  it('ends open streams when the app closes', async () => {
    const own = await startTestApp({ env: STREAM_ENV });
    const w = await setupWidget(own);
    const c = await start(own, w.widget.key);
    const stream = track(await streamFor(own, w.widget.key, c));
    await stream.next(isStatus(null, false));
    await own.close();
  });
});
