// Reply rules through HTTP: the upsert of each slot, validation naming the position, the test
// route's precedence and trace, concurrency, and the shared security suite.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type TestApp, startTestApp } from '../support/app.js';
import { testClock } from '../support/clock.js';
import { makeTenant, type Tenant } from '../support/factories.js';
import { assertError, expectStatus, type SecuredRouteRow, securitySuites } from '../support/security.js';

interface ReplyRule { id: string; companyId: string; replyType: string; conditions: unknown[]; isEnabled: boolean; createdAt: string; updatedAt: string }
interface Predicate { path: string; operator: string; left: unknown; found: boolean; holds: boolean; reason?: string }
interface Slot { replyType: string; configured: boolean; isEnabled: boolean; evaluated: boolean; holds: boolean; groups: { scope: string; holds: boolean; predicates: Predicate[] }[] }
interface Decision { replyType: string; matched: boolean; slots: Slot[] }

const slot = (type: string) => `/v2/reply-behavior/${type}/public`;
const list = '/v2/reply-behavior/public';
const test = '/v2/reply-behavior/test/public';

const pred = (path: string, dataType: string, operator: string, value?: unknown) => ({ left: { path, dataType }, operator, ...(value === undefined ? {} : { right: { value } }) });
const when = (...predicate: object[]) => ({ scope: 'SCALAR', predicate });
/** Silent when the customer only says thanks. */
const thanks = [when(pred('message.content', 'string', 'matches', '^(thanks|thank you)[.!]*$'))];
/** A note for the team for VIP customers on email. */
const vipEmail = [when(pred('userAttributes.isVip', 'boolean', '==', true), pred('conversation.channel', 'string', '==', 'EMAIL'))];

describe('reply rules', () => {
  let t: TestApp;
  let w: Tenant;
  const clock = testClock();
  before(async () => {
    t = await startTestApp({ clock });
    w = await makeTenant(t);
  });
  after(() => t.close());

  const ok = <T>(status: number, method: string, path: string, body?: unknown, key = w.key) => expectStatus<T>(t, status, method, path, key, body);
  const fail = async (method: string, path: string, status: number, message?: string | RegExp, body?: unknown, key = w.key) =>
    assertError(await t.request(method, path, { key, body }), status, message);

  it('creates a slot enabled by default, updates it keeping isEnabled, and lists slots in precedence order', async () => {
    const created = await ok<ReplyRule>(200, 'PUT', slot('INTERNAL_COMMENT'), { conditions: vipEmail });
    assert.equal(created.replyType, 'INTERNAL_COMMENT');
    assert.equal(created.companyId, w.workspaceId);
    assert.equal(created.isEnabled, true);
    assert.deepEqual(created.conditions, vipEmail);
    await ok<ReplyRule>(200, 'PUT', slot('INTERNAL_COMMENT'), { conditions: vipEmail, isEnabled: false });
    clock.advance(1_000);
    const updated = await ok<ReplyRule>(200, 'PUT', slot('INTERNAL_COMMENT'), { conditions: thanks });
    assert.equal(updated.id, created.id);
    assert.equal(updated.isEnabled, false, 'unchanged when left out');
    assert.deepEqual(updated.conditions, thanks);
    assert.equal(updated.createdAt, created.createdAt);
    assert.notEqual(updated.updatedAt, created.updatedAt);
    await ok(200, 'PUT', slot('NO_REPLY'), { conditions: thanks });
    assert.deepEqual((await ok<ReplyRule[]>(200, 'GET', list, undefined, w.readKey)).map((r) => r.replyType), ['NO_REPLY', 'INTERNAL_COMMENT']);
    assert.deepEqual(await ok<ReplyRule>(200, 'GET', slot('INTERNAL_COMMENT'), undefined, w.readKey), updated);
  });

  it('answers 404 for a slot never set and deletes a set one', async () => {
    const w2 = await makeTenant(t);
    await fail('GET', slot('DIRECT_REPLY'), 404, 'no DIRECT_REPLY reply rule is set in this workspace', undefined, w2.key);
    await fail('DELETE', slot('DIRECT_REPLY'), 404, undefined, undefined, w2.key);
    const made = await ok<ReplyRule>(200, 'PUT', slot('DIRECT_REPLY'), { conditions: [] }, w2.key);
    assert.deepEqual(await ok<ReplyRule>(200, 'DELETE', slot('DIRECT_REPLY'), undefined, w2.key), made);
    await fail('GET', slot('DIRECT_REPLY'), 404, undefined, undefined, w2.key);
  });

  it('refuses bad conditions with a 400 naming the exact position, and stores nothing', async () => {
    const w2 = await makeTenant(t);
    const put = (conditions: unknown) => t.request('PUT', slot('NO_REPLY'), { key: w2.key, body: { conditions } });
    assertError(await put([when(), when(pred('message.content', 'string', 'resembles', 'x'))]), 400, /^body\.conditions\.1\.predicate\.0\.operator: /);
    assertError(await put([{ scope: 'SOME', predicate: [] }]), 400, /^body\.conditions\.0\.scope: /);
    assertError(await put([when(pred('message.content', 'text', '==', 'x'))]), 400, /^body\.conditions\.0\.predicate\.0\.left\.dataType: /);
    assertError(await put([when(pred('weather.today', 'string', '==', 'x'))]), 400, /^body\.conditions\.0\.predicate\.0\.left\.path: "weather\.today" is outside the evaluation context/);
    assertError(await put([when(pred('message.body', 'string', '==', 'x'))]), 400, /^body\.conditions\.0\.predicate\.0\.left\.path: "message\.body" is not a field of message/);
    assertError(await put([when(pred('conversation.turn', 'number', 'contains', 1))]), 400, /^body\.conditions\.0\.predicate\.0\.operator: operator contains does not apply to dataType number/);
    assertError(await put([when(pred('conversation.turn', 'number', '>', 'three'))]), 400, /^body\.conditions\.0\.predicate\.0\.right\.value: right\.value must be a number/);
    assertError(await put([when(pred('message.content', 'string', 'matches', '(a+)+$'))]), 400, /^body\.conditions\.0\.predicate\.0\.right\.value: the regular expression can backtrack catastrophically/);
    assertError(await put([when(pred('message.content', 'string', 'matches', '('))]), 400, /not a valid regular expression/);
    assertError(await put([{ scope: 'ANY', predicate: [pred('tags.Topic', 'array', 'contains', 'x')] }]), 400, /^body\.conditions\.0\.predicate\.0\.left\.dataType: scope ANY compares the items/);
    assertError(await put('none'), 400, /^body\.conditions: /);
    assertError(await t.request('PUT', slot('MAYBE_REPLY'), { key: w2.key, body: { conditions: [] } }), 400, /^path\.replyType: /);
    assertError(await t.request('GET', '/v2/reply-behavior/test/public', { key: w2.key }), 400, /^path\.replyType: /);
    assertError(await t.request('PUT', slot('NO_REPLY'), { key: w2.key, raw: '{"conditions":', headers: { 'content-type': 'application/json' } }), 400, /JSON/);
    assert.deepEqual(await ok<ReplyRule[]>(200, 'GET', list, undefined, w2.key), []);
  });

  it('keeps one row per slot under concurrent first writes', async () => {
    const w2 = await makeTenant(t);
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => t.request<ReplyRule>('PUT', slot('NO_REPLY'), { key: w2.key, body: { conditions: [when(pred('conversation.turn', 'number', '==', i))] } })));
    assert.deepEqual(results.map((r) => r.status), [200, 200, 200, 200, 200, 200]);
    assert.equal(new Set(results.map((r) => r.body.id)).size, 1);
    assert.equal((await ok<ReplyRule[]>(200, 'GET', list, undefined, w2.key)).length, 1);
  });

  describe('test route', () => {
    let w3: Tenant;
    before(async () => {
      w3 = await makeTenant(t);
      await ok(200, 'PUT', slot('NO_REPLY'), { conditions: thanks }, w3.key);
      await ok(200, 'PUT', slot('INTERNAL_COMMENT'), { conditions: vipEmail }, w3.key);
      await ok(200, 'PUT', slot('DIRECT_REPLY'), { conditions: [when(pred('conversation.turn', 'number', '>=', 1))], isEnabled: false }, w3.key);
    });
    const run = (context: unknown) => ok<Decision>(200, 'POST', test, { context }, w3.readKey);

    it('answers DIRECT_REPLY by default with the trace of every enabled slot', async () => {
      const decision = await run({ message: { content: 'Where is my order?' }, userAttributes: { isVip: false }, conversation: { channel: 'email' } });
      assert.equal(decision.replyType, 'DIRECT_REPLY');
      assert.equal(decision.matched, false);
      assert.deepEqual(decision.slots.map((s) => [s.replyType, s.configured, s.isEnabled, s.evaluated, s.holds]), [
        ['NO_REPLY', true, true, true, false],
        ['INTERNAL_COMMENT', true, true, true, false],
        ['DIRECT_REPLY', true, false, false, false],
      ]);
      const [vip, channel] = decision.slots[1]!.groups[0]!.predicates as [Predicate, Predicate];
      assert.deepEqual([vip.path, vip.left, vip.found, vip.holds], ['userAttributes.isVip', false, true, false]);
      assert.deepEqual([channel.left, channel.holds], ['email', true], 'string comparison is case-insensitive');
    });

    it('applies INTERNAL_COMMENT when its group holds', async () => {
      const decision = await run({ message: { content: 'Hi' }, userAttributes: { isVip: true }, conversation: { channel: 'Email' } });
      assert.equal(decision.replyType, 'INTERNAL_COMMENT');
      assert.equal(decision.matched, true);
    });

    it('gives NO_REPLY precedence when several slots hold', async () => {
      const decision = await run({ message: { content: 'Thanks!' }, userAttributes: { isVip: true }, conversation: { channel: 'email' } });
      assert.equal(decision.replyType, 'NO_REPLY');
      assert.deepEqual(decision.slots.map((s) => s.holds), [true, true, false]);
    });

    it('reads a missing path as false with its reason, and a type mismatch too', async () => {
      const decision = await run({ message: { content: 'Hello' }, userAttributes: { isVip: 'yes' } });
      const [vip, channel] = decision.slots[1]!.groups[0]!.predicates as [Predicate, Predicate];
      assert.deepEqual([vip.holds, vip.reason, vip.left], [false, 'type_mismatch', 'yes']);
      assert.deepEqual([channel.holds, channel.reason, channel.found, channel.left], [false, 'missing', false, null]);
      const empty = await run({});
      assert.equal(empty.replyType, 'DIRECT_REPLY');
    });

    it('refuses an unknown namespace in the context', async () => {
      await fail('POST', test, 400, /body\.context/, { context: { weather: { sunny: true } } }, w3.key);
    });
  });

  it("never shows or changes another workspace's slots", async () => {
    const [owner, caller] = [await makeTenant(t), await makeTenant(t)];
    await ok(200, 'PUT', slot('NO_REPLY'), { conditions: thanks }, owner.key);
    await fail('GET', slot('NO_REPLY'), 404, undefined, undefined, caller.key);
    assert.deepEqual(await ok<ReplyRule[]>(200, 'GET', list, undefined, caller.key), []);
    await ok(200, 'PUT', slot('NO_REPLY'), { conditions: [] }, caller.key);
    assert.deepEqual((await ok<ReplyRule>(200, 'GET', slot('NO_REPLY'), undefined, owner.key)).conditions, thanks);
    assert.equal((await ok<Decision>(200, 'POST', test, { context: { message: { content: 'thanks' } } }, caller.key)).replyType, 'DIRECT_REPLY');
  });

  const own = async (app: TestApp, owner: Tenant) => {
    await expectStatus(app, 200, 'PUT', slot('NO_REPLY'), owner.key, { conditions: thanks });
    return { path: slot('NO_REPLY') };
  };
  const routes: SecuredRouteRow[] = [
    ['list', 'GET', 'read', async () => ({ path: list }), undefined],
    // A slot is addressed by its type within the calling key's workspace: there is no id of another
    // workspace to send (the test above checks that slots never cross workspaces).
    ['get', 'GET', 'read', own, undefined],
    ['put', 'PUT', 'write', async () => ({ path: slot('INTERNAL_COMMENT'), body: { conditions: [] } }), undefined],
    ['delete', 'DELETE', 'write', own, undefined],
    ['test', 'POST', 'read', async () => ({ path: test, body: { context: {} } }), undefined],
  ];
  securitySuites(() => t, routes);
});
