// The one poller of an app's open streams: each poll asks in one query which of their
// conversations changed, and only those streams read their events (counted on /metrics); a write
// through another app on the same database is seen at a poll, status changes (a hand-over, a
// release) included; a write through the app itself wakes its streams with no poll at all.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../support/app.js';
import { poll } from '../support/poll.js';
import { EVENTS, say } from '../conversations/support.js';
import { expectVisit, feedbackOf, isEvent, isStatus, messagesOf, send, setupWidget, start, streamFor, type SseReader, type Started, type VisitorEvent, type WidgetSetup } from './support.js';


/** A counter or gauge of the app's /metrics. */
async function metric(t: TestApp, name: string): Promise<number> {
  const res = await t.request<string>('GET', '/metrics');
  const line = res.text.split('\n').find((l) => l.startsWith(`${name} `));
  assert.ok(line, `${name} on /metrics`);
  return Number(line.split(' ')[1]);
}

/** Waits until the app's poller ran `count` more polls than `from`. */
async function pollsAfter(t: TestApp, from: number, count: number): Promise<number> {
  return poll(() => metric(t, 'parley_widget_stream_polls_total'), (n) => n >= from + count, { what: `${count} polls after ${from}` });
}

describe('the shared poller of open streams', () => {
  let t: TestApp;
  let sibling: TestApp;
  let s: WidgetSetup;
  const open: SseReader[] = [];
  before(async () => {
    t = await startTestApp({ env: { PARLEY_WIDGET_STREAM_POLL_MS: '100' } });
    sibling = await t.sibling();
    s = await setupWidget(t);
  });
  after(async () => {
    for (const reader of open) reader.close();
    await sibling.close();
    await t.close();
  });
  const track = (reader: SseReader) => {
    open.push(reader);
    return reader;
  };

  it('reads only the stream whose conversation changed, once, when another app wrote to it', async () => {
    const conversations: Started[] = [];
    for (let i = 0; i < 6; i += 1) {
      const c = await start(t, s.widget.key);
      await send(t, s.widget.key, c, 'How do I reset my password?');
      conversations.push(c);
    }
    // One visitor has not written yet: no conversation row, nothing to read until there is one.
    conversations.push(await start(t, s.widget.key));
    const streams: SseReader[] = [];
    for (const c of conversations) streams.push(track(await streamFor(t, s.widget.key, c)));
    for (const stream of streams.slice(0, 6)) await stream.next(isStatus('Waiting for Customer', false));
    await streams[6]!.next(isStatus(null, false));
    assert.equal(await metric(t, 'parley_widget_streams_open'), 7);

    // Each stream reads once after the first poll that follows its start; then, with nothing written, never.
    const settled = await pollsAfter(t, await metric(t, 'parley_widget_stream_polls_total'), 2);
    const readsBefore = await metric(t, 'parley_widget_stream_reads_total');
    const seenBefore = streams.map((stream) => stream.messages.length);
    await pollsAfter(t, settled, 2);
    assert.equal(await metric(t, 'parley_widget_stream_reads_total'), readsBefore);

    const changed = conversations[2]!;
    const [reply] = await say(sibling, s.w.key, { interactionId: changed.conversationId, role: 'agent', content: 'Hello from the other process' });
    const streamed = await streams[2]!.next(isEvent('agent', /other process/), seenBefore[2]);
    assert.equal(streamed.id, reply!.id);
    const afterWrite = await metric(t, 'parley_widget_stream_polls_total');
    await pollsAfter(t, afterWrite, 2);
    // One poll found the change; the changed stream read once; the others neither read nor sent anything.
    assert.equal(await metric(t, 'parley_widget_stream_reads_total'), readsBefore + 1);
    assert.deepEqual(
      streams.map((stream) => stream.messages.length),
      seenBefore.map((n, i) => (i === 2 ? n + 1 : n)),
    );
  });

  it("sees another app's hand-over and release as status events at its polls", async () => {
    const c = await start(t, s.widget.key);
    await send(t, s.widget.key, c, 'How do I reset my password?');
    const stream = track(await streamFor(t, s.widget.key, c));
    await stream.next(isStatus('Waiting for Customer', false));

    const handedOver = await expectVisit<VisitorEvent[]>(sibling, 200, 'POST', messagesOf(c.conversationId), { key: s.widget.key, token: c.visitorToken, body: { content: 'human please' } });
    assert.equal(handedOver[1]!.handover, true);
    await stream.next(isStatus('Escalated to Human Agent', true));
    assert.deepEqual(
      stream.messages.filter((m) => m.event === 'event').slice(-2).map((m) => m.id),
      handedOver.map((e) => e.id),
    );
    const released = await sibling.request('POST', `/v2/hc-interactions/${c.conversationId}/release/public`, { key: s.w.key });
    assert.equal(released.status, 200, released.text);
    await stream.next(isStatus('Escalated to Human Agent', false));
  });
});

describe("a write through the stream's own app", () => {
  let t: TestApp;
  let s: WidgetSetup;
  const open: SseReader[] = [];
  before(async () => {
    // The poller would first look a minute after the stream opened: what arrives before came by the app's own wake.
    t = await startTestApp({ env: { PARLEY_WIDGET_STREAM_POLL_MS: '60000' } });
    s = await setupWidget(t);
  });
  after(async () => {
    for (const reader of open) reader.close();
    await t.close();
  });

  it('wakes its streams at once: messages, replies, hand-over, a person, release and feedback with no poll', async () => {
    const c = await start(t, s.widget.key);
    const stream = await streamFor(t, s.widget.key, c);
    open.push(stream);
    await stream.next(isStatus(null, false));

    const [user, reply] = (await send(t, s.widget.key, c, 'How do I reset my password?')) as [VisitorEvent, VisitorEvent];
    assert.equal((await stream.next(isEvent('user'))).id, user.id);
    assert.equal((await stream.next(isEvent('parleybot', /Forgot password/))).id, reply.id);
    await stream.next(isStatus('Waiting for Customer', false));

    await send(t, s.widget.key, c, 'human please');
    await stream.next(isStatus('Escalated to Human Agent', true));
    const person = await t.request<{ id: string }[]>('POST', EVENTS, { key: s.w.key, body: { interactionId: c.conversationId, role: 'agent', content: 'Hi, Sam here.' } });
    assert.equal((await stream.next(isEvent('agent', /Sam here/))).id, person.body[0]!.id);
    const released = await t.request('POST', `/v2/hc-interactions/${c.conversationId}/release/public`, { key: s.w.key });
    assert.equal(released.status, 200, released.text);
    await stream.next(isStatus('Escalated to Human Agent', false));
    await expectVisit(t, 200, 'POST', feedbackOf(c.conversationId, reply.id), { key: s.widget.key, token: c.visitorToken, body: { resolved: true } });
    await stream.next(isStatus('Resolved by AI', false));

    assert.equal(await metric(t, 'parley_widget_stream_polls_total'), 0);
  });
});
