// A test run whose worker process is killed mid-run is taken over by another process, which resumes
// it from the results already written: the cases answered before the kill are not answered again.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type FakeLlm, fakeModelEnv, startFakeLlm, taskOf } from '../support/fake-llm.js';
import { poll } from '../support/poll.js';
import { apiCaller, firstKey, freePort, type Proc, processTestEnv, spawnScript, stop } from '../support/processes.js';

describe('a test run survives a killed worker', { timeout: 180_000 }, () => {
  let env: Record<string, string | undefined>;
  let cleanup: () => Promise<void>;
  let fake: FakeLlm;
  before(async () => {
    fake = await startFakeLlm();
    // The fleet takes a silent worker's jobs over after PARLEY_WORKER_TIMEOUT_SECONDS.
    ({ env, cleanup } = await processTestEnv('parley-testrun-kill-', {
      ...fakeModelEnv(fake.url, 'sk-test-kill', { PARLEY_LLM_MAX_RETRIES: '0' }),
      PARLEY_WORKER_HEARTBEAT_SECONDS: '2',
      PARLEY_WORKER_TIMEOUT_SECONDS: '10',
    }));
  });
  after(async () => {
    await fake.close();
    await cleanup();
  });

  it('resumes the run on another process without answering the finished cases again', async () => {
    const asked = new Map<string, number>();
    let stalled: () => void = () => undefined;
    const stalling = new Promise<void>((resolve) => (stalled = resolve));
    fake.setHandler((request) => {
      const task = taskOf(request);
      const text = JSON.stringify(request);
      const question = ['first question', 'second question', 'third question'].find((q) => text.includes(q)) ?? 'other';
      if (task === 'plan_answer') return { json: { reasoning: 'A question.', performKnowledgeSearch: true, intent: 'question', smallTalkReply: null, sentiment: 'neutral', angry: false } };
      if (task === 'generate_answer') {
        asked.set(question, (asked.get(question) ?? 0) + 1);
        // The second case's first answer never comes: its worker is killed while waiting.
        if (question === 'second question' && asked.get(question) === 1) {
          stalled();
          return { json: {}, delayMs: 120_000 };
        }
        return { json: { answer: `The answer to the ${question}.`, usedArticleIds: [], handover: false, reason: null, confidence: 0.9, bestArticleId: null, reasoning: 'x' } };
      }
      return undefined;
    });
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    let first: Proc | undefined = spawnScript('src/main.ts', ['serve', '--port', String(port)], env);
    let second: Proc | undefined;
    try {
      await first.waitForOutput(/Server listening/);
      const key = await firstKey(first, env);
      const call = apiCaller(base, key);
      const agent = await call<{ id: string }>('POST', '/v2/bots/public', { name: 'Support' });
      for (const q of ['first question', 'second question', 'third question']) {
        await call('POST', `/v2/bots/${agent.id}/test-cases/public`, { name: q, turns: [{ content: `This is the ${q}` }], expect: { contains: `answer to the ${q}` } });
      }
      const run = await call<{ id: string }>('POST', `/v2/bots/${agent.id}/test-runs/public`, {});
      await stalling;
      // Cases run four at once: the first and third end and write their results; the second waits.
      await poll(() => call<{ completedCases: number }>('GET', `/v2/test-runs/${run.id}/public`), (r) => r.completedCases === 2, { what: 'two cases to end', timeoutMs: 30_000, intervalMs: 100 });
      await stop(first, 'SIGKILL');
      first = undefined;

      second = spawnScript('src/main.ts', ['serve', '--port', String(port)], env);
      await second.waitForOutput(/Server listening/);
      const done = await poll(
        () => call<{ state: string; error: string | null; cases: { name: string; passK: boolean }[]; passRate: number }>('GET', `/v2/test-runs/${run.id}/public`),
        (r) => r.state === 'completed' || r.state === 'failed',
        { what: `test run ${run.id} on the second process`, timeoutMs: 90_000, intervalMs: 250 },
      );
      assert.equal(done.state, 'completed', done.error ?? '');
      assert.deepEqual(done.cases.map((c) => [c.name, c.passK]).sort(), [['first question', true], ['second question', true], ['third question', true]]);
      // The stalled case is answered again; those whose results were written before the kill are not.
      assert.deepEqual(Object.fromEntries(asked), { 'first question': 1, 'second question': 2, 'third question': 1 });
    } finally {
      if (first) await stop(first, 'SIGKILL');
      if (second) await stop(second, 'SIGKILL');
    }
  });
});
