// A Refine with AI iteration whose worker process is killed mid-diagnosis is run again by another
// process after its lease (PARLEY_REFINE_LEASE_SECONDS) and ends ready, never stuck.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type FakeLlm, fakeModelEnv, startFakeLlm, taskOf } from '../support/fake-llm.js';
import { poll } from '../support/poll.js';
import { apiCaller, firstKey, freePort, type Proc, processTestEnv, spawnScript, stop } from '../support/processes.js';
import { SHIPPING_DIAGNOSIS } from './support.js';


describe('a Refine with AI iteration survives a killed worker', { timeout: 120_000 }, () => {
  let env: Record<string, string | undefined>;
  let cleanup: () => Promise<void>;
  let fake: FakeLlm;
  before(async () => {
    fake = await startFakeLlm();
    // A 6 s lease: a loaded machine kills the first worker before it ends (at 2 s the first process
    // itself sometimes took the iteration over first), and the second process still takes over quickly.
    ({ env, cleanup } = await processTestEnv('parley-refine-kill-', { ...fakeModelEnv(fake.url, 'sk-test-kill', { PARLEY_LLM_MAX_RETRIES: '0' }), PARLEY_REFINE_LEASE_SECONDS: '6' }));
  });
  after(async () => {
    await fake.close();
    await cleanup();
  });

  it('runs the iteration again on another process, which ends it ready', async () => {
    let diagnoses = 0;
    let firstDiagnosis: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (firstDiagnosis = resolve));
    let answer = 'A colleague will follow up.';
    fake.setHandler((request) => {
      const task = taskOf(request);
      if (task === 'plan_answer') return { json: { reasoning: 'A question.', performKnowledgeSearch: true, intent: 'question', smallTalkReply: null, sentiment: 'neutral', angry: false } };
      if (task === 'generate_answer') return { json: { answer, usedArticleIds: [], handover: false, reason: null, confidence: 0.9, bestArticleId: null, reasoning: 'x' } };
      if (task === 'diagnose_answer') {
        diagnoses += 1;
        if (diagnoses === 1) {
          firstDiagnosis();
          return { json: SHIPPING_DIAGNOSIS, delayMs: 60_000 }; // the worker is killed while waiting for this answer
        }
        answer = 'Yes, we ship to Canada within 5 business days.';
        return { json: SHIPPING_DIAGNOSIS };
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
      const folder = await call<{ id: string }>('POST', '/v2/hc-folders/public', { title: 'Help', description: '' });
      await call('POST', '/v2/hc-bot-folder-junctions/public', { junctions: [{ folderId: folder.id, botId: agent.id, action: 'ADD' }] });
      const events = await call<{ id: string; role: string; interactionId: string }[]>('POST', '/v2/hc-interactions/events/public', { content: 'Do you ship to Canada?', botId: agent.id });
      const reply = events.find((e) => e.role === 'parleybot')!;
      const sessionPath = `/v2/fix-review/interactions/${reply.interactionId}/events/${reply.id}/session/public`;
      const { iterationId } = await call<{ iterationId: string }>('POST', `/v2/fix-review/interactions/${reply.interactionId}/events/${reply.id}/sessions/iterations/public`, {
        feedbackNote: 'It should say we ship to Canada within 5 business days.',
      });
      await started;
      const during = await call<{ latestIteration: { status: string } }>('GET', sessionPath);
      assert.equal(during.latestIteration.status, 'generating_changes');
      await stop(first, 'SIGKILL');
      first = undefined;

      second = spawnScript('src/main.ts', ['serve', '--port', String(port)], env);
      await second.waitForOutput(/Server listening/);
      const session = await poll(
        () => call<{ latestIteration: { id: string; status: string; error: string | null; changes: unknown[]; newAnswerSnapshot: { content: string } | null } }>('GET', sessionPath),
        (s) => ['ready', 'no_change', 'failed'].includes(s.latestIteration.status),
        { what: `iteration ${iterationId} on the second process`, timeoutMs: 60_000, intervalMs: 250 },
      );
      assert.equal(session.latestIteration.id, iterationId);
      assert.equal(session.latestIteration.status, 'ready', session.latestIteration.error ?? '');
      assert.equal(session.latestIteration.changes.length, 1);
      assert.equal(session.latestIteration.newAnswerSnapshot?.content, 'Yes, we ship to Canada within 5 business days.');
      assert.equal(diagnoses, 2);
    } finally {
      if (first) await stop(first, 'SIGKILL');
      if (second) await stop(second, 'SIGKILL');
    }
  });
});
