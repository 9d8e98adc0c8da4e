// The context and its ports: inTransaction(ctx) with jobs and domain events committing together with
// the change, the two listener phases, savepoints, a fake model passed as a port, and the deferred
// foreign key that keeps a source from pointing at a deleted article.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { type LlmProvider, type LlmTask, NO_USAGE } from '../../src/ai/index.js';
import { authorOf, contextForJob, emit, inTransaction, type JobRun, type Ports, type WorkspaceContext } from '../../src/context.js';
import { workspaces } from '../../src/db/schema/index.js';
import { type DomainEvents, type EventName } from '../../src/events/events.js';
import { defineListener, registeredListener, type ListenerPhase } from '../../src/events/bus.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { makeTenant, type Tenant } from '../support/factories.js';
import { expectStatus } from '../support/security.js';

interface Seen {
  phase: ListenerPhase;
  event: EventName;
  payload: unknown;
  workspaceId: string;
  /** Whether the listener ran on the process's database (outside any transaction). */
  outside: boolean;
}

/** Records every event it hears, in both phases; a failing switch lets a test make either phase throw. */
function recorder(getPorts: () => Ports) {
  const seen: Seen[] = [];
  const failing = { transaction: false, commit: false };
  const names: EventName[] = ['article.published', 'article.deleted', 'source.ingested', 'knowledge.generated'];
  const listeners = names.flatMap((event) =>
    (['transaction', 'commit'] as const).map((phase) =>
      registeredListener(
        defineListener({
          name: `test.record-${phase}`,
          event,
          phase,
          handle: async (ctx, payload) => {
            if (failing[phase]) throw new Error(`the ${phase} listener fails`);
            seen.push({ phase, event, payload, workspaceId: ctx.workspaceId, outside: ctx.db === getPorts().db });
          },
        }),
      ),
    ),
  );
  return { seen, failing, listeners };
}

function jobRun(ports: Ports, id = randomUUID()): JobRun {
  return { ports, id, retryCount: 0, signal: new AbortController().signal, log: pino({ level: 'silent' }) };
}

const INGESTED: DomainEvents['source.ingested'] = { sourceId: '11111111-1111-4111-8111-111111111111', status: 'COMPLETED', changed: false };

describe('inTransaction(ctx) and domain events', () => {
  let t: TestApp;
  let w: Tenant;
  let ctx: WorkspaceContext;
  const events = recorder(() => t.ports);
  before(async () => {
    t = await startTestApp({ listeners: events.listeners });
    w = await makeTenant(t);
    ctx = contextForJob(jobRun(t.ports), w.workspaceId, null);
  });
  after(() => t.close());

  const reset = () => {
    events.seen.length = 0;
    events.failing.transaction = false;
    events.failing.commit = false;
  };
  const workspaceName = async () => (await t.database.db.select().from(workspaces).where(eq(workspaces.id, w.workspaceId)))[0]!.name;
  const rename = (tx: WorkspaceContext, name: string) => tx.db.update(workspaces).set({ name }).where(eq(workspaces.id, w.workspaceId));

  it('runs transaction listeners inside the transaction and commit listeners once it committed', async () => {
    reset();
    await inTransaction(ctx, async (tx) => {
      await emit(tx, 'source.ingested', INGESTED);
      assert.deepEqual(
        events.seen.map((s) => [s.phase, s.outside]),
        [['transaction', false]],
        'only the transaction listener has run, on the transaction',
      );
    });
    assert.deepEqual(
      events.seen.map((s) => [s.phase, s.event, s.workspaceId, s.outside]),
      [
        ['transaction', 'source.ingested', w.workspaceId, false],
        ['commit', 'source.ingested', w.workspaceId, true],
      ],
    );
    assert.deepEqual(events.seen[1]!.payload, INGESTED);
  });

  it('a rollback undoes the change with its transaction listeners and never reaches commit listeners', async () => {
    reset();
    const before = await workspaceName();
    await assert.rejects(
      inTransaction(ctx, async (tx) => {
        await rename(tx, 'renamed inside');
        await emit(tx, 'source.ingested', INGESTED);
        throw new Error('the change fails after emitting');
      }),
      /the change fails after emitting/,
    );
    assert.equal(await workspaceName(), before);
    assert.deepEqual(events.seen.map((s) => s.phase), ['transaction']);
  });

  it('a failing transaction listener fails the emitter and nothing commits', async () => {
    reset();
    const before = await workspaceName();
    events.failing.transaction = true;
    await assert.rejects(
      inTransaction(ctx, async (tx) => {
        await rename(tx, 'renamed before a failing listener');
        await emit(tx, 'source.ingested', INGESTED);
      }),
      /the transaction listener fails/,
    );
    assert.equal(await workspaceName(), before);
    assert.deepEqual(events.seen, []);
  });

  it('a failing commit listener is logged and the change stays committed', async () => {
    reset();
    events.failing.commit = true;
    await inTransaction(ctx, async (tx) => {
      await rename(tx, 'kept although a commit listener fails');
      await emit(tx, 'source.ingested', INGESTED);
    });
    assert.equal(await workspaceName(), 'kept although a commit listener fails');
    assert.ok(t.logs.some((l) => l.msg === 'event listener failed' && l.listener === 'test.record-commit' && l.event === 'source.ingested'));
  });

  it("a savepoint that rolls back drops its own events; the outer transaction's are delivered after the outer commit", async () => {
    reset();
    const inner = { ...INGESTED, sourceId: '22222222-2222-4222-8222-222222222222' };
    await inTransaction(ctx, async (tx) => {
      await emit(tx, 'source.ingested', INGESTED);
      await assert.rejects(
        inTransaction(tx, async (nested) => {
          await emit(nested, 'source.ingested', inner);
          throw new Error('savepoint rolls back');
        }),
      );
      await inTransaction(tx, (nested) => emit(nested, 'article.deleted', { articleIds: [] }));
      assert.equal(events.seen.filter((s) => s.phase === 'commit').length, 0, 'nothing is delivered before the outermost commit');
    });
    assert.deepEqual(
      events.seen.filter((s) => s.phase === 'commit').map((s) => [s.event, s.payload]),
      [
        ['source.ingested', INGESTED],
        ['article.deleted', { articleIds: [] }],
      ],
    );
  });

  it('a job enqueued inside the transaction exists exactly when the transaction commits', async () => {
    const committed = randomUUID();
    const rolledBack = randomUUID();
    await inTransaction(ctx, (tx) => tx.queue.enqueueMany(tx.db, 'knowledge.generate', [{ id: committed, payload: { workspaceId: w.workspaceId, jobId: committed } }]));
    await assert.rejects(
      inTransaction(ctx, async (tx) => {
        await tx.queue.enqueueMany(tx.db, 'knowledge.generate', [{ id: rolledBack, payload: { workspaceId: w.workspaceId, jobId: rolledBack } }]);
        throw new Error('roll back');
      }),
    );
    assert.deepEqual([...(await t.queue.liveJobIds('knowledge.generate', [committed, rolledBack]))], [committed]);
  });

  it('a job acts on behalf of the key that queued the work', () => {
    const job = contextForJob(jobRun(t.ports), w.workspaceId, 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa');
    assert.equal(job.actor.kind, 'job');
    assert.equal(authorOf(job), 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa');
    assert.equal(authorOf(contextForJob(jobRun(t.ports))), null);
  });

  describe('through the API', () => {
    const folder = async (title: string) => (await expectStatus<{ id: string }>(t, 201, 'POST', '/v2/hc-folders/public', w.key, { title, description: '' })).id;
    const draft = async (parentFolderId: string, title: string) =>
      expectStatus<{ id: string; version: number }>(t, 201, 'POST', '/v2/hc-articles/public', w.key, {
        title,
        mainKnowledge: `${title}: the whole story.`,
        agentInstruction: '',
        questions: [],
        keywords: [],
        escalation: false,
        parentFolderId,
        isDraft: true,
      });

    it('publishing a draft emits article.published with the live article, the draft and the version', async () => {
      reset();
      const created = await draft(await folder('Published'), 'Returns');
      const live = await expectStatus<{ id: string; version: number }>(t, 200, 'POST', `/v2/hc-articles/${created.id}/publish/public`, w.key, {});
      const published = events.seen.filter((s) => s.event === 'article.published');
      assert.deepEqual(published.map((s) => s.phase), ['transaction', 'commit']);
      assert.deepEqual(published[1]!.payload, { articleId: live.id, draftId: created.id, version: live.version });
      assert.equal(published[1]!.workspaceId, w.workspaceId);
    });

    it('a cascading folder delete emits one article.deleted naming every article it deleted', async () => {
      reset();
      const parent = await folder('Doomed');
      const a = await draft(parent, 'First');
      const b = await draft(parent, 'Second');
      await expectStatus(t, 200, 'DELETE', `/v2/hc-folders/${parent}/public?cascade=true`, w.key);
      const deleted = events.seen.filter((s) => s.event === 'article.deleted' && s.phase === 'commit');
      assert.equal(deleted.length, 1);
      assert.deepEqual([...(deleted[0]!.payload as { articleIds: string[] }).articleIds].sort(), [a.id, b.id].sort());
    });
  });

  it("refuses at commit a source linked to an article that is not its workspace's", async () => {
    const other = await makeTenant(t);
    const theirFolder = (await expectStatus<{ id: string }>(t, 201, 'POST', '/v2/hc-folders/public', other.key, { title: 'Theirs', description: '' })).id;
    const theirs = await expectStatus<{ id: string }>(t, 201, 'POST', '/v2/hc-articles/public', other.key, {
      title: 'Their article', mainKnowledge: 'Theirs.', agentInstruction: '', questions: [], keywords: [], escalation: false, parentFolderId: theirFolder,
    });
    const source = randomUUID();
    await t.database.db.execute(sql`INSERT INTO sources (id, workspace_id, source, external_id, original_url, title)
      VALUES (${source}, ${w.workspaceId}, 'web', ${`https://example.test/${source}`}, 'https://example.test/', 'A page')`);
    for (const article of [randomUUID(), theirs.id]) {
      await assert.rejects(
        t.database.db.execute(sql`UPDATE sources SET linked_knowledge_id = ${article} WHERE id = ${source}`),
        (error: Error & { cause?: { message?: string } }) => /sources_linked_knowledge_fk/.test(`${error.message} ${error.cause?.message ?? ''}`),
      );
    }
  });
});

describe('ports passed in', () => {
  let t: TestApp;
  const asked: string[] = [];
  const fakeModel: LlmProvider = {
    name: 'openai-compatible',
    model: 'fake-in-process',
    async run<I, O>(task: LlmTask<I, O>, input: I) {
      asked.push(task.name);
      const output = task.schema.parse({
        folders: [{ path: ['From the fake'], description: 'Made by the model port', articles: [{ title: 'Fake article', mainKnowledge: 'Said by the fake.', questions: [], keywords: [] }] }],
      });
      void input;
      return { output, usage: NO_USAGE };
    },
  };
  before(async () => {
    t = await startTestApp({ llm: fakeModel });
  });
  after(() => t.close());

  it('a model passed as the llm port answers the AI routes (no fake server needed)', async () => {
    const w = await makeTenant(t);
    const res = await t.request<string>('POST', '/v2/knowledge/public/tree/initialize', { key: w.key, body: { initPrompt: 'Anything at all' } });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(asked, ['initialize_tree']);
    assert.match(res.text, /From the fake/);
    assert.match(res.text, /Fake article/);
  });
});
