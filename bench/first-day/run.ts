// The first-day set (npm run bench:first-day): a new user's first day with Parley's engine, the
// way support leads write. Per backend, a real `parley serve` (no model configured unless the
// environment configures one); every rule instruction of rules-cases.ts is drafted and its paths
// are tried through the rule test route, every Refine note of refine-cases.ts runs against its own
// copy of the help center. Each case is scored pass / fail / not understood / harmful with a
// one-line reason; the held-out cases are reported apart.
//
//   npm run bench:first-day
//   BENCH_FIRST_DAY_BACKENDS=pglite   PGlite only (default: PGlite and, when reachable, PostgreSQL, as every bench)
//   BENCH_FIRST_DAY_ONLY=rules|refine   one half
//   BENCH_FIRST_DAY_CASES=id,id    only these cases
//   BENCH_FIRST_DAY_PART=tuned      only the cases that are not held out (what an engine may be tuned on)
// rules-cases-fresh.ts and refine-cases-fresh.ts are a second held-out part ("fresh"), reported apart.
import { abortRun, availableBackends, type Backend, exitOnSignals, onServer, pgliteBackend, writeResults } from '../support.js';
import { type CaseResult, client, type Verdict } from './common.js';
import { REFINE_CASES } from './refine-cases.js';
import { FRESH_REFINE_CASES } from './refine-cases-fresh.js';
import { runRefineCase } from './refine.js';
import { RULE_CASES } from './rules-cases.js';
import { FRESH_RULE_CASES } from './rules-cases-fresh.js';
import { createTags, runRuleCase } from './rules.js';

const SERVER_ENV = { PARLEY_LOG_LEVEL: 'warn', PARLEY_RATE_LIMIT_MAX: '100000000', PARLEY_JOB_POLL_SECONDS: '0.5' };

interface Report {
  backend: string;
  rules: CaseResult[];
  refine: CaseResult[];
  seconds: number;
  error?: string;
}

const only = process.env.BENCH_FIRST_DAY_ONLY;
/**
 * A second held-out part, written on 2026-11-26 by another writer for another shop (the Refine notes
 * against the same help center), after the engine had been tuned on the first part and before it
 * was ever run on them: reported apart, never tuned on.
 */
const FRESH = new Set([...FRESH_RULE_CASES, ...FRESH_REFINE_CASES].map((c) => c.id));
const picked = new Set((process.env.BENCH_FIRST_DAY_CASES ?? '').split(',').map((s) => s.trim()).filter(Boolean));
const tunedOnly = process.env.BENCH_FIRST_DAY_PART === 'tuned';
const wanted = <T extends { id: string; heldOut: boolean }>(cases: T[]) => (picked.size ? cases.filter((c) => picked.has(c.id)) : cases).filter((c) => !tunedOnly || !c.heldOut);

async function backends(): Promise<Backend[]> {
  return process.env.BENCH_FIRST_DAY_BACKENDS === 'pglite' ? [pgliteBackend({})] : availableBackends({});
}

const progress = (half: string, r: CaseResult, i: number, n: number) =>
  process.stderr.write(`bench: ${half} ${i + 1}/${n} ${r.id}${r.heldOut ? ' (held out)' : ''}: ${r.verdict} (${Math.round(r.ms)} ms)\n`);

const count = (list: CaseResult[], verdict: Verdict) => list.filter((r) => r.verdict === verdict).length;
const share = (n: number, of: number) => (of ? `${n}/${of} (${Math.round((n / of) * 100)}%)` : '-');

/** passes, harmful, not understood and failures of a list of cases. */
function row(label: string, list: CaseResult[]): string {
  const n = list.length;
  return `| ${label} | ${share(count(list, 'pass'), n)} | ${share(count(list, 'harmful'), n)} | ${count(list, 'not_understood')} | ${count(list, 'fail')} |`;
}

/** Which kinds of findings the cases show, most frequent first (a case counts once per kind). */
function kinds(list: CaseResult[]): string[] {
  const counts = new Map<string, { cases: number; harm: boolean }>();
  for (const r of list) {
    for (const kind of new Set(r.findings.map((f) => f.kind))) {
      const harm = r.findings.some((f) => f.kind === kind && f.harm);
      const c = counts.get(kind) ?? { cases: 0, harm };
      counts.set(kind, { cases: c.cases + 1, harm: c.harm || harm });
    }
  }
  return [...counts]
    .sort((a, b) => b[1].cases - a[1].cases || a[0].localeCompare(b[0]))
    .map(([kind, c]) => `| ${kind}${c.harm ? ' (harm)' : ''} | ${c.cases} |`);
}

function render(report: Report): string[] {
  const lines = [`## ${report.backend} (${Math.round(report.seconds)} s)`, ''];
  if (report.error) lines.push(`FAILED: ${report.error}`, '');
  lines.push('| part | passes | harmful | not understood | failed |', '|---|---:|---:|---:|---:|');
  for (const [half, list] of [['rules', report.rules], ['refine', report.refine]] as const) {
    if (list.length === 0) continue;
    lines.push(
      row(`${half}, tuned part`, list.filter((r) => !r.heldOut)),
      row(`${half}, held out`, list.filter((r) => r.heldOut && !FRESH.has(r.id))),
      row(`${half}, held out, fresh`, list.filter((r) => FRESH.has(r.id))),
      row(`**${half}, all**`, list),
    );
  }
  lines.push('', 'Aim: 90% passes in each part, zero harmful.');
  for (const [half, list] of [['Rules', report.rules], ['Refine', report.refine]] as const) {
    if (list.length === 0) continue;
    lines.push('', `### ${half}: findings by kind (cases)`, '', '| kind | cases |', '|---|---:|', ...kinds(list));
    lines.push('', `### ${half}: cases`, '', '| case | part | verdict | reason |', '|---|---|---|---|');
    for (const r of list) lines.push(`| ${r.id} | ${FRESH.has(r.id) ? 'fresh' : r.heldOut ? 'held out' : 'tuned'} | ${r.verdict} | ${r.reason.replaceAll('|', '\\|')} |`);
  }
  const already = report.refine.filter((r) => r.detail.originalAlreadyRight === true).map((r) => r.id);
  if (already.length) lines.push('', `Refine cases whose original answer already stated the fact: ${already.join(', ')}`);
  return lines;
}

async function main(): Promise<number> {
  exitOnSignals();
  const startedAt = new Date();
  // Dates in the customers' words are relative to the day of the run (UTC).
  const today = new Date(Date.UTC(startedAt.getUTCFullYear(), startedAt.getUTCMonth(), startedAt.getUTCDate(), 12));
  const ruleCases = only === 'refine' ? [] : wanted([...RULE_CASES, ...FRESH_RULE_CASES]);
  const refineCases = only === 'rules' ? [] : wanted([...REFINE_CASES, ...FRESH_REFINE_CASES]);
  const watchdog = setTimeout(() => void abortRun('watchdog: the run took over 30 minutes', 1), 30 * 60_000);
  watchdog.unref();
  const reports: Report[] = [];
  for (const backend of await backends()) {
    const report: Report = { backend: backend.name, rules: [], refine: [], seconds: 0 };
    reports.push(report);
    const began = performance.now();
    await onServer(
      backend,
      report,
      async (server) => {
        const call = client(server);
        const tagIds = await createTags(call);
        for (const [i, kase] of ruleCases.entries()) {
          const r = await runRuleCase(call, kase, tagIds, today);
          report.rules.push(r);
          progress('rules', r, i, ruleCases.length);
        }
        for (const [i, kase] of refineCases.entries()) {
          const r = await runRefineCase(call, kase);
          report.refine.push(r);
          progress('refine', r, i, refineCases.length);
        }
        if (!server.running()) throw new Error('the server exited during the run');
      },
      SERVER_ENV,
    );
    report.seconds = (performance.now() - began) / 1000;
  }
  const lines = [
    `# First-day set: ${ruleCases.length} rule instructions (${ruleCases.filter((c) => c.heldOut).length} held out), ` +
      `${refineCases.length} Refine notes (${refineCases.filter((c) => c.heldOut).length} held out)`,
    '',
  ];
  for (const report of reports) lines.push(...render(report), '');
  process.stdout.write(`\n${lines.join('\n')}\n`);
  await writeResults('first-day', startedAt, { today: today.toISOString().slice(0, 10), reports });
  return reports.some((r) => r.error) ? 1 : 0;
}

process.exitCode = await main();
