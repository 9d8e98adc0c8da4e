// Test sets and the publish gate (issue 30; npm run bench:test-runs). Per backend, a real `parley
// serve` on a fresh PGlite folder or a scratch PostgreSQL database (created and dropped):
// - an agent answering from the answers benchmark's 125 articles (../shared/bench-data/answers,
//   BENCH_ANSWERS), with test cases made through the HTTP routes: the rule scenarios (refine's
//   messages that trigger its published intent rules, expecting `ruleId`), and the rest from the
//   answers set's questions, three answerable (expecting `answers: true` citing the gold article)
//   to one unanswerable (expecting `answers: false`), spread evenly over the file;
// - a run of every case with k = 3 (POST /v2/bots/{id}/test-runs/public, polled until it ends):
//   its time from the request to `completed`, pass@1 and pass^k, per kind of case;
// - a gated publish: a cosmetic article draft (the live article fewest cases cite, its agent
//   instruction changed) published with the agent's cases, next to the same publish on an agent
//   without cases (the reference, not gated), --repetitions times each: the added time;
// - a seeded regression: a lead's draft rule (drafted from instructions, then given --broken
//   passing answerable cases' questions as its trigger description and a hand-over as its flow);
//   publishing it for the agent must answer 409 naming every one of them, and no case the draft's
//   trigger does not match (the rule test route's dry run), every repetition, while the
//   cosmetic draft publishes every time.
//
// npm run bench:test-runs -- [--cases 200] [--k 3] [--broken 10] [--repetitions 3] [--backend all|pglite|postgres]
import { parseArgs } from 'node:util';
import { type Call, client, type DataSet, loadAgent, loadSet, articlesOf, type Query } from './answers/common.js';
import { CASES, HELD_OUT, RULES } from './refine/cases.js';
import { availableBackends, exitOnSignals, onServer, type RunningServer, sleep, writeResults } from './support.js';

interface Settings {
  cases: number;
  k: number;
  broken: number;
  repetitions: number;
  backend: 'all' | 'pglite' | 'postgres';
}

function readSettings(): Settings {
  const { values } = parseArgs({
    options: { cases: { type: 'string' }, k: { type: 'string' }, broken: { type: 'string' }, repetitions: { type: 'string' }, backend: { type: 'string' } },
  });
  const positive = (flag: string, raw: string | undefined, fallback: number): number => {
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value <= 0) throw new Error(`--${flag} must be a positive integer, got "${raw}"`);
    return value;
  };
  const backend = values.backend ?? 'all';
  if (backend !== 'all' && backend !== 'pglite' && backend !== 'postgres') throw new Error(`--backend is all, pglite or postgres, got "${backend}"`);
  const settings = {
    cases: positive('cases', values.cases, 200),
    k: positive('k', values.k, 3),
    broken: positive('broken', values.broken, 10),
    repetitions: positive('repetitions', values.repetitions, 3),
    backend,
  } as const;
  if (settings.k > 10) throw new Error('--k is at most 10 (the route\'s limit)');
  return settings;
}

type Kind = 'answerable' | 'unanswerable' | 'rule';

interface BenchCase {
  id: string;
  kind: Kind;
  query: string;
}

interface CaseResult {
  caseId: string;
  passes: number;
  k: number;
  passK: boolean;
}

interface TestRun {
  id: string;
  completedCases: number;
  state: 'queued' | 'running' | 'completed' | 'failed';
  deterministic: boolean;
  caseCount: number;
  passRate: number | null;
  passKRate: number | null;
  regressedCaseIds: string[];
  gate: { regressedCaseIds: string[]; blocked: boolean } | null;
  error: string | null;
  cases: CaseResult[];
}

interface Publish {
  status: number;
  ms: number;
  message: string;
}

interface Report {
  backend: string;
  cases?: Record<Kind, number>;
  run?: { ms: number; deterministic: boolean; passAt1: number | null; passK: number | null; perKind: Record<Kind, { passAt1: number; passK: number }> };
  gatedPublishMs?: number[];
  referencePublishMs?: number[];
  harmlessPublished?: number;
  regression?: { chosen: number; matched: number; publishMs: number[]; refusals: { status: number; named: number | null; exact: boolean }[] };
  error?: string;
}

const CONCURRENCY = 4;

/** Runs `work` over `items`, `CONCURRENCY` at a time, answers in order. */
async function pool<T, R>(items: readonly T[], work: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await work(items[i]!, i);
      }
    }),
  );
  return out;
}

/** `n` items of `list` spread evenly over it. */
const spread = <T>(list: readonly T[], n: number): T[] => Array.from({ length: Math.min(n, list.length) }, (_, i) => list[Math.floor((i * list.length) / Math.min(n, list.length))]!);

const ruleMessages = [...CASES, ...HELD_OUT].filter((c) => c.expected.failureMode === 'required_rule_behavior_missing');
/** Refine's intent rules that need no action. */
const benchRules = RULES.filter((r) => !JSON.stringify(r.flowConfig).includes('$action'));

interface Workspace {
  agentId: string;
  folderId: string;
  cases: BenchCase[];
  /** The live article the cosmetic draft changes (the one fewest cases cite), and its copy under the reference agent. */
  harmless: { articleId: string; referenceArticleId: string; content: ArticleContent };
  /** Answerable cases by their gold article. */
  gold: Map<string, string>;
}

interface ArticleContent {
  title: string;
  mainKnowledge: string;
  agentInstruction: string;
  questions: string[];
  keywords: string[];
  escalation: boolean;
}

async function build(call: Call, set: DataSet, total: number): Promise<Workspace> {
  const { agentId, articleIds } = await loadAgent(call, articlesOf(set, 'none'));
  const articleOf = new Map(set.documents.map((d, i) => [d.id, articleIds[i]!]));
  const [first] = await call<{ parentFolderId: string }[]>('POST', '/v2/hc-articles/ids/public', { articleIds: [articleIds[0]] });
  const folderId = first!.parentFolderId;

  const ruleIds = new Map<string, string>();
  for (const r of benchRules) {
    const created = await call<{ id: string }>('POST', '/v2/hc-rules/public', { name: r.name, description: r.description, botIds: [agentId], flowConfig: r.flowConfig });
    ruleIds.set(r.key, created.id);
  }
  const rules = ruleMessages.filter((c) => ruleIds.has(c.expected.target)).slice(0, total);
  const answerCount = total - rules.length;
  const answerable = spread(set.queries.filter((q) => q.kind === 'answerable'), Math.round(answerCount * 0.75));
  const unanswerable = spread(set.queries.filter((q) => q.kind === 'unanswerable'), answerCount - answerable.length);
  const name = (prefix: string, text: string) => `${prefix}: ${text}`.slice(0, 200);
  const bodies: { kind: Kind; query: string; body: object }[] = [
    ...rules.map((c) => ({ kind: 'rule' as const, query: c.message, body: { name: name('rule', c.message), turns: [{ content: c.message }], expect: { ruleId: ruleIds.get(c.expected.target) }, tags: ['rule'] } })),
    ...answerable.map((q: Query) => ({
      kind: 'answerable' as const,
      query: q.query,
      body: { name: name('answerable', q.query), turns: [{ content: q.query }], expect: { answers: true, citesArticleIds: [articleOf.get(q.relevant!)] }, tags: ['answerable'] },
    })),
    ...unanswerable.map((q) => ({ kind: 'unanswerable' as const, query: q.query, body: { name: name('unanswerable', q.query), turns: [{ content: q.query }], expect: { answers: false }, tags: ['unanswerable'] } })),
  ];
  const cases = await pool(bodies, async (b) => ({ id: (await call<{ id: string }>('POST', `/v2/bots/${agentId}/test-cases/public`, b.body)).id, kind: b.kind, query: b.query }));
  const gold = new Map(answerable.map((q, i) => [cases[rules.length + i]!.id, articleOf.get(q.relevant!)!]));

  // The cosmetic draft's article: the one fewest cases cite (none, below 125 answerable cases);
  // its copy answers for an agent with no cases.
  const citing = new Map<string, number>();
  for (const article of gold.values()) citing.set(article, (citing.get(article) ?? 0) + 1);
  const harmlessDoc = [...set.documents].sort((a, b) => (citing.get(articleOf.get(a.id)!) ?? 0) - (citing.get(articleOf.get(b.id)!) ?? 0))[0]!;
  const content: ArticleContent = { title: harmlessDoc.title, mainKnowledge: harmlessDoc.answers.join('\n\n'), agentInstruction: '', questions: [], keywords: [], escalation: false };
  const reference = await loadAgent(call, [{ title: content.title, body: content.mainKnowledge }]);
  return { agentId, folderId, cases, gold, harmless: { articleId: articleOf.get(harmlessDoc.id)!, referenceArticleId: reference.articleIds[0]!, content } };
}

/** Queues a run of every case of the agent and polls it until it ends: the run and the time from the request. */
async function runAll(call: Call, agentId: string, k: number): Promise<{ run: TestRun; ms: number }> {
  const started = performance.now();
  const queued = await call<TestRun>('POST', `/v2/bots/${agentId}/test-runs/public`, { k });
  for (;;) {
    const run = await call<TestRun>('GET', `/v2/test-runs/${queued.id}/public`);
    if (run.state === 'completed' || run.state === 'failed') return { run, ms: performance.now() - started };
    if (process.env.BENCH_VERBOSE) process.stderr.write(`bench: run ${run.state}, ${run.cases.length}/${run.caseCount} cases\n`);
    if (performance.now() - started > 30 * 60_000) throw new Error(`test run ${run.id} did not end within 30 minutes`);
    await sleep(100);
  }
}

/** A publish route (POST `path` with `body`), whatever it answers. */
async function publish(server: RunningServer, path: string, body: object = {}): Promise<Publish> {
  const started = performance.now();
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await res.json()) as { message?: string };
  return { status: res.status, ms: performance.now() - started, message: answer.message ?? '' };
}

/** A draft of the live article with the cosmetic change of repetition `i` (its agent instruction): its publish route. */
async function cosmeticDraft(call: Call, articleId: string, content: ArticleContent, i: number): Promise<string> {
  const draft = await call<{ id: string }>('POST', `/v2/hc-articles/${articleId}/draft/public`, { ...content, agentInstruction: `Keep the answer short (review ${i + 1}).` });
  return `/v2/hc-articles/${draft.id}/publish/public`;
}

const share = (part: number, all: number) => (all ? part / all : 0);

async function measure(server: RunningServer, set: DataSet, settings: Settings, report: Report): Promise<void> {
  const call = client(server);
  process.stderr.write(`bench: ${report.backend}: building the agent and ${settings.cases} cases\n`);
  const ws = await build(call, set, settings.cases);
  const kinds: Kind[] = ['answerable', 'unanswerable', 'rule'];
  report.cases = Object.fromEntries(kinds.map((k) => [k, ws.cases.filter((c) => c.kind === k).length])) as Record<Kind, number>;

  process.stderr.write(`bench: ${report.backend}: running ${ws.cases.length} cases, k = ${settings.k}\n`);
  const { run, ms } = await runAll(call, ws.agentId, settings.k);
  if (run.state !== 'completed') throw new Error(`the test run ${run.state}: ${run.error}`);
  const kindOf = new Map(ws.cases.map((c) => [c.id, c.kind]));
  const perKind = Object.fromEntries(
    kinds.map((kind) => {
      const of = run.cases.filter((c) => kindOf.get(c.caseId) === kind);
      return [kind, { passAt1: share(of.reduce((s, c) => s + c.passes, 0), of.reduce((s, c) => s + c.k, 0)), passK: share(of.filter((c) => c.passK).length, of.length) }];
    }),
  ) as Record<Kind, { passAt1: number; passK: number }>;
  report.run = { ms, deterministic: run.deterministic, passAt1: run.passRate, passK: run.passKRate, perKind };

  // The seeded regression: answerable cases that pass, one per gold article, caught by one escalating draft.
  const passing = new Set(run.cases.filter((c) => c.passK).map((c) => c.caseId));
  const seen = new Set<string>();
  const chosen = ws.cases.filter((c) => {
    const article = ws.gold.get(c.id);
    if (c.kind !== 'answerable' || !passing.has(c.id) || !article || seen.has(article) || article === ws.harmless.articleId) return false;
    seen.add(article);
    return true;
  }).slice(0, settings.broken);
  if (chosen.length < settings.broken) throw new Error(`only ${chosen.length} answerable cases pass on distinct articles; --broken ${settings.broken} is too many`);
  // A lead's draft rule: these questions go to a person. Drafted from instructions, then given the
  // questions as its trigger description and a hand-over as its flow (a draft changes in place).
  const drafted = await call<{ id: string }>('POST', '/v2/hc-rules/draft/public', {
    name: 'Questions our team answers in person',
    behaviorInstructions: 'When a customer asks one of the questions our team answers in person, hand over to a human.',
  });
  // Its trigger: the chosen questions. The rule's dry run then says which passing cases it catches:
  // the chosen ones, and others sharing their words (the gate must name all of those, and no other).
  const questions = chosen.map((c) => c.query);
  await call('PATCH', `/v2/hc-rules/${drafted.id}/public`, {
    description: `Questions our team answers in person: ${questions.join(' | ')}`,
    flowConfig: { type: 'escalate', reason: 'other', message: 'A colleague will answer this one in person.' },
  });
  const matched = new Set<string>();
  await pool(ws.cases.filter((c) => passing.has(c.id)), async (c) => {
    const test = await call<{ trigger: { matched: boolean } }>('POST', `/v2/hc-rules/${drafted.id}/test/public`, { message: c.query });
    if (test.trigger.matched) matched.add(c.id);
  });
  const want = new Set(chosen.map((c) => c.id));
  report.regression = { chosen: chosen.length, matched: matched.size, publishMs: [], refusals: [] };
  report.gatedPublishMs = [];
  report.referencePublishMs = [];
  report.harmlessPublished = 0;
  for (let i = 0; i < settings.repetitions; i++) {
    process.stderr.write(`bench: ${report.backend}: publishes, repetition ${i + 1}/${settings.repetitions}\n`);
    // The same cosmetic publish, gated by the agent's cases and on the agent without cases.
    const gated = await publish(server, await cosmeticDraft(call, ws.harmless.articleId, ws.harmless.content, i));
    if (gated.status === 200) report.harmlessPublished++;
    else process.stderr.write(`bench: the cosmetic draft was refused (${gated.status}): ${gated.message.slice(0, 500)}\n`);
    report.gatedPublishMs.push(gated.ms);
    const reference = await publish(server, await cosmeticDraft(call, ws.harmless.referenceArticleId, ws.harmless.content, i));
    if (reference.status !== 200) throw new Error(`the reference publish answered ${reference.status}: ${reference.message}`);
    report.referencePublishMs.push(reference.ms);
    // The regression: refused with 409 naming the chosen cases and only cases its trigger matches (the gate run lists them all).
    const refused = await publish(server, `/v2/hc-rules/${drafted.id}/publish/public`, { botIds: [ws.agentId], acceptWarnings: true });
    report.regression.publishMs.push(refused.ms);
    const named = /the drafts break (\d+) test case/.exec(refused.message);
    const gateRuns = await call<{ testRuns: TestRun[] }>('GET', `/v2/bots/${ws.agentId}/test-runs/public?trigger=gate&limit=1`);
    const ids = gateRuns.testRuns[0]?.gate?.regressedCaseIds ?? [];
    // Caught: every chosen case named, and nothing the draft's trigger does not match.
    const exact = refused.status === 409 && [...want].every((id) => ids.includes(id)) && ids.every((id) => matched.has(id));
    if (!exact) process.stderr.write(`bench: the regression draft answered ${refused.status}: ${refused.message.slice(0, 500)}\n`);
    report.regression.refusals.push({ status: refused.status, named: named ? Number(named[1]) : null, exact });
  }
}

const median = (values: number[] | undefined) => {
  if (!values?.length) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};
const msText = (n: number | undefined) => (n === undefined ? '-' : `${Math.round(n)} ms`);
const rate = (n: number | null | undefined) => (n === null || n === undefined ? '-' : n.toFixed(3));

function table(reports: Report[], settings: Settings): string[] {
  const col = (pick: (r: Report) => string) => reports.map((r) => (r.error && !r.run ? 'failed' : pick(r))).join(' | ');
  const reg = (r: Report) => r.regression;
  return [
    `| measure | ${reports.map((r) => r.backend).join(' | ')} |`,
    `|---|${reports.map(() => '---:|').join('')}`,
    `| cases (answerable / unanswerable / rule) | ${col((r) => (r.cases ? `${r.cases.answerable + r.cases.unanswerable + r.cases.rule} (${r.cases.answerable} / ${r.cases.unanswerable} / ${r.cases.rule})` : '-'))} |`,
    `| run of every case, k = ${settings.k}: request to completed | ${col((r) => (r.run ? `${(r.run.ms / 1000).toFixed(1)} s${r.run.deterministic ? ' (built-in engine: one run stands for k)' : ''}` : '-'))} |`,
    `| pass@1 | ${col((r) => rate(r.run?.passAt1))} |`,
    `| pass^${settings.k} | ${col((r) => rate(r.run?.passK))} |`,
    `| pass@1 answerable / unanswerable / rule | ${col((r) => (r.run ? `${rate(r.run.perKind.answerable.passAt1)} / ${rate(r.run.perKind.unanswerable.passAt1)} / ${rate(r.run.perKind.rule.passAt1)}` : '-'))} |`,
    `| cosmetic article publish, gated by the cases (median of ${settings.repetitions}) | ${col((r) => msText(median(r.gatedPublishMs)))} |`,
    `| the same publish, agent without cases (reference, not gated) | ${col((r) => msText(median(r.referencePublishMs)))} |`,
    `| added time of the gate | ${col((r) => { const a = median(r.gatedPublishMs); const b = median(r.referencePublishMs); return a === undefined || b === undefined ? '-' : msText(a - b); })} |`,
    `| cosmetic draft published | ${col((r) => `${r.harmlessPublished ?? 0}/${settings.repetitions}`)} |`,
    `| draft rule breaking ${settings.broken} chosen cases: 409 naming every one, nothing its trigger does not match | ${col((r) => `${reg(r)?.refusals.filter((x) => x.exact).length ?? 0}/${settings.repetitions} (named ${[...new Set(reg(r)?.refusals.map((x) => x.named ?? '-') ?? [])].join(', ') || '-'}; its trigger matches ${reg(r)?.matched ?? '-'} passing cases)`)} |`,
    `| refused publish time (median) | ${col((r) => msText(median(reg(r)?.publishMs)))} |`,
  ];
}

async function main(): Promise<number> {
  exitOnSignals();
  const settings = readSettings();
  const startedAt = new Date();
  if (settings.backend !== 'all') process.env.BENCH_BACKENDS = settings.backend;
  const set = await loadSet('answers');
  const env = { PARLEY_LOG_LEVEL: 'warn', PARLEY_RATE_LIMIT_MAX: '100000000', PARLEY_JOB_POLL_SECONDS: '0.5' };
  const reports: Report[] = [];
  for (const backend of await availableBackends({})) {
    const report: Report = { backend: backend.name };
    reports.push(report);
    await onServer(backend, report, (server) => measure(server, set, settings, report), env);
  }
  const lines = [
    `Test runs and the publish gate: ${settings.cases} cases over the answers benchmark's ${set.documents.length} articles, k = ${settings.k}, ${settings.repetitions} repetitions of each publish.`,
    '',
    ...table(reports, settings),
  ];
  for (const r of reports) if (r.error) lines.push('', `${r.backend}: FAILED: ${r.error}`);
  process.stdout.write(`\n${lines.join('\n')}\n`);
  await writeResults('test-runs', startedAt, { settings, dataset: set.file, reports });
  const ok = (r: Report) =>
    !r.error && r.harmlessPublished === settings.repetitions && (r.regression?.refusals.every((x) => x.exact) ?? false);
  return reports.every(ok) ? 0 : 1;
}

process.exitCode = await main();
