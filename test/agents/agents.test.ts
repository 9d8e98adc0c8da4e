import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { agents, type PromptSectionValue, type PromptSet, promptVersions } from '../../src/db/schema/index.js';
import { DEFAULT_PROMPTS } from '../../src/modules/agents/default-prompts.js';
import { type TestApp, startTestApp } from '../support/app.js';
import { testClock } from '../support/clock.js';
import { makeTenant, type Tenant } from '../support/factories.js';
import { assertError, expectStatus, securitySuite } from '../support/security.js';

interface Serialized { hcPlanningPrompt: string; hcGuidelinePrompt: string; hcEmailChannelPrompt: string; hcChatChannelPrompt: string }
interface Agent extends Serialized { id: string; name: string; createdAt: string }
interface AgentPrompt extends PromptSet {
  botId: string; isDefault: boolean; version: number | null; versionId: string | null; createdAt: string | null; createdBy: string | null; serialized: Serialized;
}
/** GET .../hc-prompt/history/public: a top-level array of saved prompts, newest first, as on the deployed service. */
interface SavedPrompt extends AgentPrompt { version: number; versionId: string; createdAt: string; draftId: string | null }
type History = SavedPrompt[];
interface Draft extends PromptSet {
  id: string; botId: string; status: string; baseVersion: number | null; note: string; origin: string;
  publishedVersionId: string | null; createdAt: string; updatedAt: string; createdBy: string | null; updatedBy: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const NO_HISTORY = (_botId: string): History => [];

const sec = (id: string, title: string, content: string, enabled = true) => ({ id, title, content, enabled });
const chan = (id: string, channel: 'email' | 'chat', title: string, content: string, enabled = true) => ({ ...sec(id, title, content, enabled), channel });
/** A prompt set whose sections are told apart by `tag`. */
const simpleSet = (tag: string): PromptSet => ({
  hcPlanningPrompt: [sec(`plan.${tag}`, `Plan ${tag}`, `Plan content ${tag}`)],
  hcGuidelinePrompt: [sec(`guide.${tag}`, `Guide ${tag}`, `Guide content ${tag}`)],
  hcChannelPrompt: [chan(`mail.${tag}`, 'email', `Mail ${tag}`, `Mail content ${tag}`)],
});
/** The specified serialization, written independently of the presenter. */
const serialize = (sections: PromptSectionValue[]) => sections.filter((s) => s.enabled).map((s) => `## ${s.title}\n${s.content}`).join('\n\n');
const serializeSet = (p: PromptSet): Serialized => ({
  hcPlanningPrompt: serialize(p.hcPlanningPrompt),
  hcGuidelinePrompt: serialize(p.hcGuidelinePrompt),
  hcEmailChannelPrompt: serialize(p.hcChannelPrompt.filter((s) => s.channel === 'email')),
  hcChatChannelPrompt: serialize(p.hcChannelPrompt.filter((s) => s.channel === 'chat')),
});
const arrays = ({ hcPlanningPrompt, hcGuidelinePrompt, hcChannelPrompt }: PromptSet): PromptSet => ({ hcPlanningPrompt, hcGuidelinePrompt, hcChannelPrompt });

const bot = (id: string) => `/v2/bots/${id}/public`;
const save = (id: string) => `/v2/bots/${id}/hc-prompt`;
const current = (id: string) => `/v2/bots/${id}/hc-prompt/public`;
const history = (id: string) => `/v2/bots/${id}/hc-prompt/history/public`;
const drafts = (id: string) => `/v2/bots/${id}/hc-prompt/drafts/public`;
const draft = (id: string, draftId: string) => `/v2/bots/${id}/hc-prompt/drafts/${draftId}/public`;
const publish = (id: string, draftId: string) => `/v2/bots/${id}/hc-prompt/drafts/${draftId}/publish/public`;

describe('agent and prompt routes', () => {
  let t: TestApp;
  /** Advanced where "most recently updated" must be unambiguous. */
  const clock = testClock();
  before(async () => {
    t = await startTestApp({ clock });
  });
  after(() => t.close());

  const ok = <T>(status: number, method: string, path: string, key: string, body?: unknown) =>
    expectStatus<T>(t, status, method, path, key, body);
  const fail = async (key: string, method: string, path: string, status: number, message?: string | RegExp, body?: unknown) =>
    assertError(await t.request(method, path, { key, body }), status, message);
  const badJson = async (key: string, method: string, path: string) =>
    assertError(await t.request(method, path, { key, raw: '{"name":', headers: { 'content-type': 'application/json' } }), 400, /JSON/);
  const createAgent = (w: Tenant, name = 'Support bot') => ok<Agent>(201, 'POST', '/v2/bots/public', w.writeKey, { name });
  const listAgents = (w: Tenant) => ok<Agent[]>(200, 'GET', '/v2/bots/public', w.readKey);
  const savePrompts = (w: Tenant, id: string, set: PromptSet) => ok<AgentPrompt>(201, 'POST', save(id), w.writeKey, set);
  const getPrompt = (w: Tenant, id: string) => ok<AgentPrompt>(200, 'GET', current(id), w.readKey);
  const getHistory = (w: Tenant, id: string) => ok<History>(200, 'GET', history(id), w.readKey);
  const createDraft = (w: Tenant, id: string, body: object = {}) => ok<Draft>(201, 'POST', drafts(id), w.writeKey, body);
  const getDraft = (w: Tenant, id: string, draftId: string) => ok<Draft>(200, 'GET', draft(id, draftId), w.readKey);
  const publishDraft = (w: Tenant, id: string, draftId: string, body?: unknown) => ok<AgentPrompt>(200, 'POST', publish(id, draftId), w.writeKey, body);
  const listDrafts = async (w: Tenant, id: string, status?: string) =>
    (await ok<{ drafts: Draft[] }>(200, 'GET', drafts(id) + (status ? `?status=${status}` : ''), w.readKey)).drafts;
  const agentWithDraft = async (w: Tenant) => {
    const agent = await createAgent(w);
    return { agent, d: await createDraft(w, agent.id) };
  };

  describe('security', () => {
    type Build = (owner: Tenant) => Promise<{ path: string; body?: unknown }>;
    const agentPath = (to: (id: string) => string, body?: unknown): Build => async (o) => ({ path: to((await createAgent(o)).id), body });
    const draftPath = (to: typeof draft, body?: unknown): Build => async (o) => {
      const { agent, d } = await agentWithDraft(o);
      return { path: to(agent.id, d.id), body };
    };
    // [method, scope, status for an agent of another workspace, label, request]
    const routes: [string, 'read' | 'write', number | undefined, string, Build][] = [
      ['GET', 'read', undefined, 'list agents', async () => ({ path: '/v2/bots/public' })],
      ['POST', 'write', undefined, 'create agent', async () => ({ path: '/v2/bots/public', body: { name: 'x' } })],
      ['PATCH', 'write', 404, 'rename agent', agentPath(bot, { name: 'y' })],
      ['DELETE', 'write', 404, 'delete agent', agentPath(bot)],
      ['GET', 'read', 406, 'get prompts', agentPath(current)],
      ['POST', 'write', 406, 'save prompts', agentPath(save, simpleSet('s'))],
      ['GET', 'read', 406, 'prompt history', agentPath(history)],
      ['POST', 'write', 406, 'create draft', agentPath(drafts, { note: 'n' })],
      ['GET', 'read', 406, 'list drafts', agentPath(drafts)],
      ['GET', 'read', 406, 'get draft', draftPath(draft)],
      ['PUT', 'write', 406, 'update draft', draftPath(draft, { note: 'm' })],
      ['DELETE', 'write', 406, 'discard draft', draftPath(draft)],
      ['POST', 'write', 406, 'publish draft', draftPath(publish, {})],
    ];
    for (const [method, scope, cross, label, build] of routes) {
      describe(label, () =>
        securitySuite(() => t, {
          method,
          scope,
          request: (_t, tenant) => build(tenant),
          otherWorkspace: cross ? { request: (_t, owner) => build(owner), status: cross } : undefined,
        }));
    }
  });

  describe('agents', () => {
    it('creates an agent answering with the default prompts, serialized', async () => {
      const w = await makeTenant(t);
      assert.deepEqual(await listAgents(w), []);
      const agent = await createAgent(w, '  Support bot  ');
      assert.match(agent.id, UUID);
      assert.match(agent.createdAt, ISO);
      assert.ok(Math.abs(Date.parse(agent.createdAt) - Date.now()) < 10_000);
      // deepEqual also pins the exact set of fields.
      assert.deepEqual(agent, { id: agent.id, name: 'Support bot', createdAt: agent.createdAt, ...serializeSet(DEFAULT_PROMPTS) });
      assert.ok(agent.hcPlanningPrompt.startsWith('## When to search the knowledge base\nSearch the knowledge base before'));
      assert.match(agent.hcPlanningPrompt, /messages that ask nothing\.\n\n## Ask when the request is unclear\nIf the customer/);
      assert.ok(agent.hcEmailChannelPrompt.startsWith('## Email format\n') && !agent.hcEmailChannelPrompt.includes('Chat format'));
      assert.ok(agent.hcChatChannelPrompt.startsWith('## Chat format\n') && !agent.hcChatChannelPrompt.includes('Email format'));
      assert.deepEqual(await listAgents(w), [agent]);
    });

    it('lists the most recently updated first: creation, rename, prompt save and publish count', async () => {
      const w = await makeTenant(t);
      const a = await createAgent(w, 'a');
      clock.advance();
      const b = await createAgent(w, 'b');
      clock.advance();
      const c = await createAgent(w, 'c');
      const order = async () => (await listAgents(w)).map((x) => x.name);
      assert.deepEqual(await order(), ['c', 'b', 'a']);
      clock.advance();
      assert.deepEqual(await ok(200, 'PATCH', bot(a.id), w.writeKey, { name: 'a2' }), { ...a, name: 'a2' });
      assert.deepEqual(await order(), ['a2', 'c', 'b']);
      clock.advance();
      await savePrompts(w, b.id, simpleSet('b'));
      assert.deepEqual(await order(), ['b', 'a2', 'c']);
      clock.advance();
      const d = await createDraft(w, c.id, { note: 'drafting is not an update' });
      assert.deepEqual(await order(), ['b', 'a2', 'c']);
      clock.advance();
      await publishDraft(w, c.id, d.id);
      assert.deepEqual(await order(), ['c', 'b', 'a2']);
      await ok(200, 'DELETE', bot(b.id), w.writeKey);
      assert.deepEqual(await order(), ['c', 'a2']);
    });

    it('validates names, bodies and ids; a rename answers with the saved prompts', async () => {
      const w = await makeTenant(t);
      const agent = await createAgent(w, 'keep');
      for (const [method, path] of [['POST', '/v2/bots/public'], ['PATCH', bot(agent.id)]] as const) {
        for (const body of [{ name: '' }, { name: '   ' }, { name: 'x'.repeat(201) }, { name: 5 }, {}]) {
          await fail(w.key, method, path, 400, /^body\.name: /, body);
        }
        await fail(w.key, method, path, 400, /^body: .*extra/, { name: 'ok', extra: true });
        await badJson(w.key, method, path);
      }
      assert.deepEqual(await listAgents(w), [agent], 'nothing created or renamed');
      await savePrompts(w, agent.id, simpleSet('r'));
      const renamed = await ok<Agent>(200, 'PATCH', bot(agent.id), w.writeKey, { name: ` ${'x'.repeat(200)} ` });
      assert.deepEqual(renamed, { id: agent.id, name: 'x'.repeat(200), createdAt: agent.createdAt, ...serializeSet(simpleSet('r')) });
      assert.deepEqual(await listAgents(w), [renamed]);
      for (const [method, body] of [['PATCH', { name: 'n' }], ['DELETE']] as const) {
        await fail(w.key, method, bot('not-a-uuid'), 400, /^path\.id: /, body);
        await fail(w.key, method, bot(UNKNOWN), 404, 'agent not found', body);
      }
    });

    it('soft-deletes: gone from every route, kept in the database', async () => {
      const w = await makeTenant(t);
      const agent = await createAgent(w, 'doomed');
      const other = await createAgent(w, 'survivor');
      await savePrompts(w, agent.id, simpleSet('d'));
      const d = await createDraft(w, agent.id);
      assert.deepEqual(await ok(200, 'DELETE', bot(agent.id), w.writeKey), { success: true });
      assert.deepEqual((await listAgents(w)).map((a) => a.id), [other.id]);
      await fail(w.key, 'DELETE', bot(agent.id), 404, 'agent not found');
      await fail(w.key, 'PATCH', bot(agent.id), 404, 'agent not found', { name: 'back' });
      const gone = [['GET', current(agent.id)], ['POST', save(agent.id), simpleSet('x')], ['GET', history(agent.id)], ['GET', drafts(agent.id)],
        ['GET', draft(agent.id, d.id)], ['PUT', draft(agent.id, d.id), {}], ['POST', publish(agent.id, d.id)]] as const;
      for (const [method, path, body] of gone) await fail(w.key, method, path, 404, 'agent not found', body);
      const [row] = await t.database.db.select().from(agents).where(eq(agents.id, agent.id));
      assert.ok(row?.deletedAt instanceof Date);
      assert.ok(Math.abs(row.deletedAt.getTime() - Date.now()) < 10_000);
      assert.deepEqual([row.name, row.promptVersion], ['doomed', 1]);
      assert.equal((await t.database.db.select().from(promptVersions).where(eq(promptVersions.agentId, agent.id))).length, 1);
      // A deleted agent exists nowhere: another workspace gets 404 too, not 406.
      await fail((await makeTenant(t)).key, 'GET', current(agent.id), 404, 'agent not found');
    });

    it('keeps each workspace to its own agents', async () => {
      const [a, b] = [await makeTenant(t), await makeTenant(t)];
      const a1 = await createAgent(a, 'a1');
      const a2 = await createAgent(a, 'a2');
      const b1 = await createAgent(b, 'b1');
      assert.deepEqual((await listAgents(a)).map((x) => x.id).sort(), [a1.id, a2.id].sort());
      assert.deepEqual((await listAgents(b)).map((x) => x.id), [b1.id]);
      await fail(b.key, 'PATCH', bot(a1.id), 404, 'agent not found', { name: 'stolen' });
      await fail(b.key, 'DELETE', bot(a2.id), 404, 'agent not found');
      for (const [method, path, body] of [['GET', current(a1.id)], ['POST', save(a1.id), simpleSet('x')], ['GET', history(a1.id)], ['POST', drafts(a1.id), {}]] as const) {
        await fail(b.key, method, path, 406, 'agent belongs to a different workspace', body);
      }
      assert.deepEqual((await listAgents(a)).map((x) => x.name).sort(), ['a1', 'a2']);
      assert.deepEqual(await getHistory(a, a1.id), NO_HISTORY(a1.id));
      assert.deepEqual(await listDrafts(a, a1.id), []);
    });
  });

  describe('prompts', () => {
    it('answers a new agent with the default sections', async () => {
      const w = await makeTenant(t);
      const { id, hcPlanningPrompt, hcGuidelinePrompt, hcEmailChannelPrompt, hcChatChannelPrompt } = await createAgent(w);
      assert.deepEqual(await getPrompt(w, id), {
        botId: id, isDefault: true, version: null, versionId: null, createdAt: null, createdBy: null, ...arrays(DEFAULT_PROMPTS),
        serialized: { hcPlanningPrompt, hcGuidelinePrompt, hcEmailChannelPrompt, hcChatChannelPrompt },
      });
      assert.deepEqual(await getHistory(w, id), NO_HISTORY(id));
    });

    it('serializes exactly the enabled sections, channel sections split by channel', async () => {
      const w = await makeTenant(t);
      const { id, name, createdAt } = await createAgent(w);
      const set: PromptSet = {
        hcPlanningPrompt: [sec('p1', 'Plan A', 'Do A.'), sec('p2', 'Plan B', 'Do B.', false), sec('p3', 'Plan C', 'Line 1\nLine 2')],
        hcGuidelinePrompt: [sec('g1', 'Off', 'Hidden.', false)],
        hcChannelPrompt: [chan('c1', 'chat', 'Chat 1', 'Brief.'), chan('e1', 'email', 'Mail 1', 'Formal.'), chan('e2', 'email', 'Mail 2', 'No.', false),
          chan('c2', 'chat', 'Chat 2', 'Friendly.'), chan('e3', 'email', 'Mail 3', 'Sign off.')],
      };
      const expected = {
        hcPlanningPrompt: '## Plan A\nDo A.\n\n## Plan C\nLine 1\nLine 2',
        hcGuidelinePrompt: '',
        hcEmailChannelPrompt: '## Mail 1\nFormal.\n\n## Mail 3\nSign off.',
        hcChatChannelPrompt: '## Chat 1\nBrief.\n\n## Chat 2\nFriendly.',
      };
      const saved = await savePrompts(w, id, set);
      assert.deepEqual(arrays(saved), set, 'disabled sections are kept in the arrays');
      assert.deepEqual(saved.serialized, expected);
      assert.deepEqual(await getPrompt(w, id), saved);
      assert.deepEqual(await listAgents(w), [{ id, name, createdAt, ...expected }]);
      const blank = { hcPlanningPrompt: '', hcGuidelinePrompt: '', hcEmailChannelPrompt: '', hcChatChannelPrompt: '' };
      const none = await savePrompts(w, id, { hcPlanningPrompt: [], hcGuidelinePrompt: [], hcChannelPrompt: [chan('c', 'chat', 'C', 'c', false)] });
      assert.deepEqual(none.serialized, blank);
      assert.deepEqual(await listAgents(w), [{ id, name, createdAt, ...blank }]);
    });

    it('saves each change as a new version, history newest first', async () => {
      const w = await makeTenant(t);
      const { id } = await createAgent(w);
      const sets = [simpleSet('one'), simpleSet('two'), { ...simpleSet('three'), hcChannelPrompt: [] }];
      const saved: AgentPrompt[] = [];
      for (const set of sets) saved.push(await savePrompts(w, id, set));
      saved.forEach((s, i) => {
        assert.deepEqual([s.botId, s.version, s.isDefault], [id, i + 1, false]);
        assert.match(s.versionId ?? '', UUID);
        assert.match(s.createdAt ?? '', ISO);
        assert.match(s.createdBy ?? '', UUID);
        assert.deepEqual(arrays(s), sets[i]);
        assert.deepEqual(s.serialized, serializeSet(sets[i] as PromptSet));
      });
      assert.equal(new Set(saved.map((s) => s.versionId)).size, 3);
      const h = await getHistory(w, id);
      assert.ok(Array.isArray(h), 'a top-level array');
      assert.deepEqual(h, [2, 1, 0].map((i) => ({ ...(saved[i] as AgentPrompt), draftId: null })));
      const now = await getPrompt(w, id);
      assert.deepEqual(now, saved[2]);
      assert.deepEqual(now.hcChannelPrompt, [], 'a section left out is removed');
    });

    it('gives concurrent saves distinct consecutive versions', async () => {
      const w = await makeTenant(t);
      const { id } = await createAgent(w);
      const results = await Promise.all([1, 2, 3, 4, 5].map((n) => savePrompts(w, id, simpleSet(`c${n}`))));
      assert.deepEqual(results.map((r) => r.version).sort(), [1, 2, 3, 4, 5]);
      const h = await getHistory(w, id);
      assert.deepEqual(h.map((v) => v.version), [5, 4, 3, 2, 1]);
    });

    it('rejects invalid prompts without saving a version', async () => {
      const w = await makeTenant(t);
      const { id } = await createAgent(w);
      const base = simpleSet('v');
      const noChannel = { hcPlanningPrompt: base.hcPlanningPrompt, hcGuidelinePrompt: base.hcGuidelinePrompt };
      const cases: [unknown, string | RegExp][] = [
        [noChannel, /^body\.hcChannelPrompt: /],
        [{ ...base, hcPlanningPrompt: 'text' }, /^body\.hcPlanningPrompt: /],
        [{ ...base, hcChannelPrompt: [sec('c', 'C', 'c')] }, /^body\.hcChannelPrompt\.0\.channel: /],
        [{ ...base, hcChannelPrompt: [chan('c', 'email', 'C', 'c'), { ...sec('d', 'D', 'd'), channel: 'sms' }] }, /^body\.hcChannelPrompt\.1\.channel: /],
        [{ ...base, hcPlanningPrompt: [chan('p', 'chat', 'P', 'p')] }, /^body\.hcPlanningPrompt\.0: .*channel/],
        [{ ...base, hcGuidelinePrompt: [sec('dup', 'A', 'a'), sec('dup', 'B', 'b')] }, 'body.hcGuidelinePrompt.1.id: duplicate section id "dup"'],
        [{ ...base, hcPlanningPrompt: [sec('has space', 'A', 'a')] }, 'body.hcPlanningPrompt.0.id: letters, digits and . _ : - only'],
        [{ ...base, hcPlanningPrompt: [sec('é', 'A', 'a')] }, /^body\.hcPlanningPrompt\.0\.id: letters/],
        [{ ...base, hcPlanningPrompt: [sec('', 'A', 'a')] }, /^body\.hcPlanningPrompt\.0\.id: /],
        [{ ...base, hcPlanningPrompt: [sec('ok', '   ', 'a')] }, /^body\.hcPlanningPrompt\.0\.title: /],
        [{ ...base, hcPlanningPrompt: [{ id: 'ok', title: 'T', content: 'c' }] }, /^body\.hcPlanningPrompt\.0\.enabled: /],
        [{ ...base, hcPlanningPrompt: Array.from({ length: 51 }, (_, i) => sec(`s${i}`, 'T', 'c')) }, /^body\.hcPlanningPrompt: /],
        [{ ...base, extra: true }, /^body: .*extra/],
      ];
      for (const [body, message] of cases) await fail(w.key, 'POST', save(id), 400, message, body);
      await badJson(w.key, 'POST', save(id));
      assert.deepEqual(await getHistory(w, id), NO_HISTORY(id));
      // Ids need only be unique within one prompt.
      const shared = { hcPlanningPrompt: [sec('same', 'A', 'a')], hcGuidelinePrompt: [sec('same', 'B', 'b')], hcChannelPrompt: [chan('a:b_c.D-1', 'chat', 'C', 'c')] };
      assert.equal((await savePrompts(w, id, shared)).version, 1);
    });

    it('answers with the stored lower-case id whatever case the path used, and takes a draft with no body', async () => {
      const w = await makeTenant(t);
      const agent = await createAgent(w);
      const upper = agent.id.toUpperCase();
      assert.equal((await savePrompts(w, upper, simpleSet('u'))).botId, agent.id);
      assert.deepEqual((await getHistory(w, upper)).map((v) => v.botId), [agent.id]);
      assert.equal((await getPrompt(w, upper)).botId, agent.id);
      const res = await t.request<Draft>('POST', drafts(upper), { key: w.writeKey });
      assert.equal(res.status, 201, res.text);
      assert.deepEqual([res.body.botId, res.body.baseVersion, res.body.note], [agent.id, 1, '']);
    });

    it('answers 400 for a malformed agent id and 404 for an unknown one', async () => {
      const w = await makeTenant(t);
      for (const [method, path, body] of [['GET', current], ['POST', save, simpleSet('u')], ['GET', history], ['GET', drafts], ['POST', drafts, {}]] as const) {
        await fail(w.key, method, path('nope'), 400, /^path\.id: /, body);
        await fail(w.key, method, path(UNKNOWN), 404, 'agent not found', body);
      }
    });
  });

  describe('prompt drafts', () => {
    it('copies the prompts a draft leaves out and changes nothing until published', async () => {
      const w = await makeTenant(t);
      const { id } = await createAgent(w);
      const v1 = await savePrompts(w, id, simpleSet('v1'));
      const guideline = [sec('guide.new', 'Friendlier', 'Smile.')];
      const d = await createDraft(w, id, { hcGuidelinePrompt: guideline, note: 'Friendlier tone' });
      assert.match(d.id, UUID);
      assert.match(d.createdAt, ISO);
      assert.match(d.createdBy ?? '', UUID);
      assert.deepEqual(d, {
        id: d.id, botId: id, status: 'draft', baseVersion: 1, note: 'Friendlier tone', origin: 'API_CREATED', publishedVersionId: null,
        createdAt: d.createdAt, updatedAt: d.createdAt, createdBy: d.createdBy, updatedBy: d.createdBy, ...simpleSet('v1'), hcGuidelinePrompt: guideline,
      });
      assert.deepEqual(await getPrompt(w, id), v1);
      assert.deepEqual(await getDraft(w, id, d.id), d);
      assert.deepEqual(await listDrafts(w, id), [d]);
      assert.deepEqual(await listDrafts(w, id, 'draft'), [d]);
      assert.deepEqual(await listDrafts(w, id, 'published'), []);
    });

    it('bases a draft of a new agent on the defaults and publishes it as version 1', async () => {
      const w = await makeTenant(t);
      const { id } = await createAgent(w);
      const d = await createDraft(w, id, { hcChannelPrompt: [] });
      assert.deepEqual([d.baseVersion, d.note], [null, '']);
      assert.deepEqual(arrays(d), { ...arrays(DEFAULT_PROMPTS), hcChannelPrompt: [] });
      const published = await publishDraft(w, id, d.id, {});
      assert.deepEqual([published.version, published.isDefault], [1, false]);
      assert.deepEqual(arrays(published), arrays(d));
      assert.deepEqual([published.serialized.hcEmailChannelPrompt, published.serialized.hcChatChannelPrompt], ['', '']);
    });

    it('updates an open draft: named prompts and the note replaced, the rest kept', async () => {
      const w = await makeTenant(t);
      const { id } = await createAgent(w);
      const d = await createDraft(w, id, { note: 'first' });
      clock.advance();
      const other = await createDraft(w, id, { note: 'other' });
      assert.deepEqual((await listDrafts(w, id)).map((x) => x.id), [other.id, d.id]);
      clock.advance();
      const channel = [chan('chat.only', 'chat', 'Chat', 'Short.')];
      const u1 = await ok<Draft>(200, 'PUT', draft(id, d.id), w.writeKey, { hcChannelPrompt: channel });
      assert.deepEqual(u1, { ...d, hcChannelPrompt: channel, updatedAt: u1.updatedAt });
      assert.ok(Date.parse(u1.updatedAt) > Date.parse(d.updatedAt));
      assert.deepEqual((await listDrafts(w, id)).map((x) => x.id), [d.id, other.id], 'most recently updated first');
      const u2 = await ok<Draft>(200, 'PUT', draft(id, d.id), w.writeKey, { note: 'second', hcPlanningPrompt: [] });
      assert.deepEqual(u2, { ...u1, note: 'second', hcPlanningPrompt: [], updatedAt: u2.updatedAt });
      assert.deepEqual(await getDraft(w, id, d.id), u2);
      assert.equal((await getPrompt(w, id)).isDefault, true, 'the agent still answers with the defaults');
    });

    it('publishes a draft as the next version and closes it', async () => {
      const w = await makeTenant(t);
      const { id } = await createAgent(w);
      await savePrompts(w, id, simpleSet('v1'));
      const d = await createDraft(w, id, { hcPlanningPrompt: [sec('plan.d', 'Drafted', 'From the draft.')] });
      const published = await publishDraft(w, id, d.id);
      assert.deepEqual([published.version, published.isDefault], [2, false]);
      assert.deepEqual(arrays(published), arrays(d));
      assert.deepEqual(published.serialized, serializeSet(d));
      assert.deepEqual(await getPrompt(w, id), published);
      const h = await getHistory(w, id);
      assert.deepEqual(h.map((v) => [v.version, v.draftId]), [[2, d.id], [1, null]]);
      assert.deepEqual(h[0], { ...published, draftId: d.id });
      const closed = await getDraft(w, id, d.id);
      assert.deepEqual([closed.status, closed.publishedVersionId], ['published', published.versionId]);
      assert.deepEqual(await listDrafts(w, id), []);
      assert.deepEqual(await listDrafts(w, id, 'published'), [closed]);
      const message = 'prompt draft is already published';
      await fail(w.key, 'POST', publish(id, d.id), 409, message);
      await fail(w.key, 'POST', publish(id, d.id), 409, message, { overwrite: true });
      await fail(w.key, 'PUT', draft(id, d.id), 409, message, { note: 'x' });
      await fail(w.key, 'DELETE', draft(id, d.id), 409, message);
      assert.equal((await getHistory(w, id))[0]?.version, 2);
    });

    it('publishes one draft once when two publishes race', async () => {
      const w = await makeTenant(t);
      const { agent, d } = await agentWithDraft(w);
      const results = await Promise.all([1, 2].map(() => t.request('POST', publish(agent.id, d.id), { key: w.key })));
      assert.deepEqual(results.map((r) => r.status).sort(), [200, 409]);
      assert.deepEqual((await getHistory(w, agent.id)).map((v) => [v.version, v.draftId]), [[1, d.id]]);
    });

    it('refuses to publish over a newer save unless overwrite is set', async () => {
      const w = await makeTenant(t);
      const { id } = await createAgent(w);
      const stale = await createDraft(w, id, { note: 'from the defaults' });
      await savePrompts(w, id, simpleSet('v1'));
      const d = await createDraft(w, id, { hcGuidelinePrompt: [] });
      await savePrompts(w, id, simpleSet('v2'));
      await fail(w.key, 'POST', publish(id, stale.id), 409, /draft based on version default, current version 2\).*overwrite=true/);
      await fail(w.key, 'POST', publish(id, d.id), 409, /draft based on version 1, current version 2/, { overwrite: false });
      assert.equal((await getHistory(w, id))[0]?.version, 2);
      assert.equal((await getDraft(w, id, d.id)).status, 'draft');
      const forced = await publishDraft(w, id, d.id, { overwrite: true });
      assert.equal(forced.version, 3);
      assert.deepEqual(arrays(forced), { ...simpleSet('v1'), hcGuidelinePrompt: [] });
      assert.equal((await getDraft(w, id, d.id)).publishedVersionId, forced.versionId);
    });

    it('discards an open draft, which stays readable', async () => {
      const w = await makeTenant(t);
      const { id } = await createAgent(w);
      const d = await createDraft(w, id, { note: 'maybe' });
      const kept = await createDraft(w, id, { note: 'keep' });
      const discarded = await ok<Draft>(200, 'DELETE', draft(id, d.id), w.writeKey);
      assert.deepEqual(discarded, { ...d, status: 'discarded', updatedAt: discarded.updatedAt });
      assert.deepEqual(await getDraft(w, id, d.id), discarded);
      assert.deepEqual((await listDrafts(w, id)).map((x) => x.id), [kept.id]);
      assert.deepEqual(await listDrafts(w, id, 'discarded'), [discarded]);
      const message = 'prompt draft is already discarded';
      await fail(w.key, 'DELETE', draft(id, d.id), 409, message);
      await fail(w.key, 'PUT', draft(id, d.id), 409, message, { note: 'x' });
      await fail(w.key, 'POST', publish(id, d.id), 409, message, { overwrite: true });
      assert.deepEqual(await getHistory(w, id), NO_HISTORY(id));
    });

    it('validates draft bodies, queries and ids', async () => {
      const w = await makeTenant(t);
      const { agent, d } = await agentWithDraft(w);
      const sibling = await createAgent(w);
      const cases: [string, string, unknown, string | RegExp][] = [
        ['GET', `${drafts(agent.id)}?status=open`, undefined, /^query\.status: /],
        ['GET', `${drafts(agent.id)}?other=1`, undefined, /^query: .*other/],
        ['POST', drafts(agent.id), { extra: 1 }, /^body: .*extra/],
        ['POST', drafts(agent.id), { note: 'x'.repeat(2001) }, /^body\.note: /],
        ['POST', drafts(agent.id), { hcGuidelinePrompt: [sec('a', 'A', 'a'), sec('a', 'B', 'b')] }, /duplicate section id "a"/],
        ['PUT', draft(agent.id, d.id), { hcChannelPrompt: [sec('c', 'C', 'c')] }, /^body\.hcChannelPrompt\.0\.channel: /],
        ['PUT', draft(agent.id, d.id), { note: 'n', status: 'published' }, /^body: .*status/],
        ['POST', publish(agent.id, d.id), { overwrite: 'yes' }, /^body\.overwrite: /],
        ['POST', publish(agent.id, d.id), { forced: true }, /^body: .*forced/],
      ];
      for (const [method, path, body, message] of cases) await fail(w.key, method, path, 400, message, body);
      await badJson(w.key, 'PUT', draft(agent.id, d.id));
      for (const [method, path, body] of [['GET', draft], ['PUT', draft, { note: 'n' }], ['DELETE', draft], ['POST', publish]] as const) {
        await fail(w.key, method, path(agent.id, 'nope'), 400, /^path\.draftId: /, body);
        await fail(w.key, method, path(agent.id, UNKNOWN), 404, 'prompt draft not found', body);
        await fail(w.key, method, path(sibling.id, d.id), 404, 'prompt draft not found', body);
      }
      assert.deepEqual(await getDraft(w, agent.id, d.id), d, 'the draft is untouched');
      assert.deepEqual(await getHistory(w, agent.id), NO_HISTORY(agent.id));
    });
  });
});
