// Refine with AI quality (npm run bench:refine): per backend, a real `parley serve` with a small
// help-center workspace (12 articles, 5 intent rules, an action on a local fake parcel API); each
// seeded case asks the agent through Generate Answer, sends the support lead's feedback to
// Refine with AI, waits for the iteration, and scores the root cause (stage and mode), the target
// (which article, rule or prompt) and whether the replayed answer fixes the case. Sessions are
// closed after each case, so every case starts from the same live configuration.
//
//   npm run bench:refine      (BENCH_REFINE_CASES=N runs the first N cases)
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableBackends, exitOnSignals, onServer, positiveIntEnv, type RunningServer, sleep, writeResults } from '../support.js';
import { ARTICLES, type Case, CASES, HELD_OUT, RULES } from './cases.js';

interface Outcome {
  id: string;
  expected: Case['expected'];
  /** The original answer already passes the case's check (not a real failure). */
  seededPasses: boolean;
  status: string;
  error: string | null;
  stage: string | null;
  mode: string | null;
  target: string | null;
  rootCauseRight: boolean;
  targetRight: boolean;
  fixed: boolean;
  worse: boolean;
  original: string;
  replayed: string | null;
  ms: number;
}

interface Report {
  backend: string;
  outcomes: Outcome[];
  /** The held-out cases (HELD_OUT), scored apart. */
  heldOut: Outcome[];
  error?: string;
}

type Call = <T>(method: string, path: string, body?: unknown) => Promise<T>;

function client(server: RunningServer): Call {
  return async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${server.apiKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as T;
    if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(json).slice(0, 300)}`);
    return json;
  };
}

interface Workspace {
  agentId: string;
  articleKeys: Map<string, string>;
  ruleKeys: Map<string, string>;
}

async function build(call: Call, apiUrl: string): Promise<Workspace> {
  const agent = await call<{ id: string }>('POST', '/v2/bots/public', { name: 'Help center agent' });
  const folder = await call<{ id: string }>('POST', '/v2/hc-folders/public', { title: 'Help center', description: 'Product help' });
  await call('POST', '/v2/hc-bot-folder-junctions/public', { junctions: [{ folderId: folder.id, botId: agent.id, action: 'ADD' }] });
  const articleKeys = new Map<string, string>();
  for (const a of ARTICLES) {
    const created = await call<{ id: string }>('POST', '/v2/hc-articles/public', {
      title: a.title, mainKnowledge: a.body, agentInstruction: '', questions: [], keywords: [], escalation: false, parentFolderId: folder.id,
    });
    articleKeys.set(created.id, a.key);
  }
  const action = await call<{ id: string }>('POST', '/v2/hc-tools/public', { name: 'trackParcel', description: 'Looks a parcel up by its number' });
  await call('PATCH', `/v2/hc-tools/${action.id}/public`, { inputFields: [{ name: 'parcelNumber', type: 'string', required: true }], outputFields: [{ name: 'status', type: 'string' }] });
  await call('POST', '/v2/api-function-configs/public', { toolId: action.id, name: 'parcel', requestMethod: 'GET', requestUrl: `${apiUrl}/parcels/\${parcelNumber}`, responseMapping: { status: 'status' } });
  const ruleKeys = new Map<string, string>();
  for (const r of RULES) {
    const flowConfig = JSON.parse(JSON.stringify(r.flowConfig).replaceAll('"$action"', JSON.stringify(action.id)));
    const created = await call<{ id: string }>('POST', '/v2/hc-rules/public', { name: r.name, description: r.description, botIds: [agent.id], flowConfig });
    ruleKeys.set(created.id, r.key);
  }
  return { agentId: agent.id, articleKeys, ruleKeys };
}

const passes = (text: string, kase: Case) => kase.present.every((p) => p.test(text)) && !(kase.absent ?? []).some((p) => p.test(text));

interface Session {
  id: string;
  latestIteration: {
    id: string;
    status: string;
    error: string | null;
    newAnswerSnapshot: { content: string | null } | null;
    changes: { rootCause: { failureStage: string; failureMode: string; target: { kind: string; articleId?: string; ruleId?: string; promptType?: string; operation?: string } } }[];
  } | null;
}

async function runCase(call: Call, ws: Workspace, kase: Case): Promise<Outcome> {
  const started = performance.now();
  const events = await call<{ id: string; role: string; message: string; interactionId: string }[]>('POST', '/v2/hc-interactions/events/public', { content: kase.message, botId: ws.agentId });
  const reply = events.find((e) => e.role === 'parleybot');
  if (!reply) throw new Error(`no reply to "${kase.message}"`);
  const { iterationId } = await call<{ iterationId: string }>('POST', `/v2/fix-review/interactions/${reply.interactionId}/events/${reply.id}/sessions/iterations/public`, { feedbackNote: kase.feedback });
  let session: Session | null = null;
  for (let i = 0; i < 600; i++) {
    session = await call<Session | null>('GET', `/v2/fix-review/interactions/${reply.interactionId}/events/${reply.id}/session/public`);
    const status = session?.latestIteration?.id === iterationId ? session.latestIteration.status : 'queued';
    if (['ready', 'no_change', 'failed'].includes(status)) break;
    await sleep(100);
  }
  const iteration = session?.latestIteration ?? null;
  // The main cause: the first change.
  const cause = iteration?.changes[0]?.rootCause ?? null;
  const t = cause?.target;
  const target = !t
    ? null
    : t.kind === 'kb_article'
      ? t.operation === 'create'
        ? 'new'
        : (ws.articleKeys.get(t.articleId ?? '') ?? t.articleId ?? null)
      : t.kind === 'rule'
        ? (ws.ruleKeys.get(t.ruleId ?? '') ?? t.ruleId ?? null)
        : (t.promptType ?? 'prompt');
  const replayed = iteration?.newAnswerSnapshot?.content ?? null;
  const seededPasses = passes(reply.message, kase);
  const fixed = iteration?.status === 'ready' && replayed !== null && passes(replayed, kase);
  const worse = replayed !== null && kase.present.some((p) => p.test(reply.message) && !p.test(replayed));
  if (session) await call('POST', `/v2/fix-review/sessions/${session.id}/close/public`, { reason: 'benchmark case done' });
  return {
    id: kase.id,
    expected: kase.expected,
    seededPasses,
    status: iteration?.status ?? 'missing',
    error: iteration?.error ?? null,
    stage: cause?.failureStage ?? null,
    mode: cause?.failureMode ?? null,
    target,
    rootCauseRight: cause?.failureStage === kase.expected.failureStage && cause?.failureMode === kase.expected.failureMode,
    targetRight: target === kase.expected.target,
    fixed,
    worse,
    original: reply.message,
    replayed,
    ms: performance.now() - started,
  };
}

async function main(): Promise<number> {
  exitOnSignals();
  const startedAt = new Date();
  const cases = CASES.slice(0, positiveIntEnv('BENCH_REFINE_CASES', CASES.length));
  // The parcel API: every parcel is in transit (the cases never reach it: the rule forgot to ask for the number).
  const api = createServer((req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'in transit', path: req.url })));
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  const apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  const reports: Report[] = [];
  for (const backend of await availableBackends({})) {
    const report: Report = { backend: backend.name, outcomes: [], heldOut: [] };
    reports.push(report);
    await onServer(
      backend,
      report,
      async (server) => {
        const call = client(server);
        const ws = await build(call, apiUrl);
        for (const kase of cases) report.outcomes.push(await runCase(call, ws, kase));
        for (const kase of HELD_OUT) report.heldOut.push(await runCase(call, ws, kase));
      },
      { PARLEY_LOG_LEVEL: 'warn', PARLEY_RATE_LIMIT_MAX: '100000000', PARLEY_FETCH_ALLOW_PRIVATE: 'true', PARLEY_JOB_POLL_SECONDS: '0.5' },
    );
  }
  api.close();

  const share = (list: Outcome[], pick: (o: Outcome) => boolean) => (list.length ? `${list.filter(pick).length}/${list.length} (${Math.round((list.filter(pick).length / list.length) * 100)}%)` : '-');
  const lines = [`Refine with AI, built-in engine: ${cases.length} seeded failure cases.`, ''];
  for (const r of reports) {
    if (r.error) lines.push(`${r.backend}: FAILED: ${r.error}`, '');
    const o = r.outcomes;
    if (o.length === 0) continue;
    const ms = o.map((x) => x.ms).sort((a, b) => a - b);
    lines.push(
      `${r.backend}`,
      '',
      '| measure | result | aim |',
      '|---|---:|---:|',
      `| root cause right (stage and mode) | ${share(o, (x) => x.rootCauseRight)} | >= 90% |`,
      `| target right (article, rule or prompt) | ${share(o, (x) => x.targetRight)} | |`,
      `| fixed on replay | ${share(o, (x) => x.fixed)} | >= 80% |`,
      `| replay worse than the original | ${o.filter((x) => x.worse).length} | 0 |`,
      `| seeded answers that already passed their check | ${o.filter((x) => x.seededPasses).length} | 0 |`,
      `| case time p50 / max (answer, iteration, replay) | ${Math.round(ms[Math.floor(ms.length / 2)]!)} / ${Math.round(ms.at(-1)!)} ms | |`,
      '',
      '| stage | cases | root cause right | fixed |',
      '|---|---:|---:|---:|',
    );
    for (const stage of [...new Set(o.map((x) => `${x.expected.failureStage}/${x.expected.failureMode}`))]) {
      const of = o.filter((x) => `${x.expected.failureStage}/${x.expected.failureMode}` === stage);
      lines.push(`| ${stage} | ${of.length} | ${share(of, (x) => x.rootCauseRight)} | ${share(of, (x) => x.fixed)} |`);
    }
    const h = r.heldOut;
    if (h.length) {
      lines.push(
        '',
        `Held-out cases (written after the engine, never used to change it): ${h.length}`,
        '',
        '| measure | result |',
        '|---|---:|',
        `| root cause right | ${share(h, (x) => x.rootCauseRight)} |`,
        `| target right | ${share(h, (x) => x.targetRight)} |`,
        `| fixed on replay | ${share(h, (x) => x.fixed)} |`,
        `| replay worse than the original | ${h.filter((x) => x.worse).length} |`,
        `| seeded answers that already passed their check | ${h.filter((x) => x.seededPasses).length} |`,
      );
    }
    const misses = [...o, ...h].filter((x) => !x.rootCauseRight || !x.targetRight || !x.fixed || x.worse || x.seededPasses);
    if (misses.length) {
      lines.push('', 'Cases not fully right:');
      for (const x of misses) {
        lines.push(`- ${x.id}: ${x.status}${x.error ? ` (${x.error})` : ''}; got ${x.stage}/${x.mode} -> ${x.target}, expected ${x.expected.failureStage}/${x.expected.failureMode} -> ${x.expected.target}; fixed ${x.fixed}; replay: ${JSON.stringify((x.replayed ?? '').slice(0, 160))}`);
      }
    }
    lines.push('');
  }
  process.stdout.write(`\n${lines.join('\n')}\n`);
  await writeResults('refine', startedAt, { cases: cases.length, reports });
  return reports.some((r) => r.error) ? 1 : 0;
}

process.exitCode = await main();
