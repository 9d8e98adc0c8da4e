// The rule half of the first-day set: each instruction is drafted through POST
// /v2/hc-rules/draft/public, then every path the lead would try is run through the dry run POST
// /v2/hc-rules/{id}/test/public, one customer message at a time with the walk's `state` carried
// over, the customer answering whatever the flow asks from the case's script.
import { type Call, type CaseResult, type Finding, clip, decide, firstMatch, messageOf, readWarnings } from './common.js';
import { type Branch, type Expected, type RuleCase, type Said, TAGS } from './rules-cases.js';

interface Step {
  nodeId: string;
  type: string;
  field?: string;
  action?: string;
  reply?: string;
  reason?: string;
}

interface Walk {
  status: 'waiting_for_input' | 'escalated' | 'ended' | 'completed';
  steps: Step[];
  replies: string[];
  tagIds: string[];
  escalation: { reason: string; message: string | null } | null;
  state: { status: string; waitingFor: { field: string } | null; collected: Record<string, unknown>; tagIds: string[] };
}

interface TestAnswer {
  trigger: { matched: boolean; score: number; reason: string };
  walk: Walk | null;
}

interface Draft {
  id: string;
  name: string;
  description: string;
  flowConfig: unknown;
}

/** Words of an instruction that are not for customers, in a flow's messages. */
const INSTRUCTION_WORDS = [
  /\b(tell|ask|inform|remind) (the )?(customer|customers|them|him|her)\b/i,
  /\blet (the customer|them) know\b/i,
  /\bpls\b|\bplz\b/i,
  /^\s*(apologi[sz]e|say|tell|reply|offer|give them|send them|hand (it )?over|transfer|escalate|tag)\b/im,
  /\b(otherwise|else) say\b/i,
];

/** The Topic group with the tags the instructions name; answers tag name -> id. */
export async function createTags(call: Call): Promise<Map<string, string>> {
  const group = await call<{ id: string }>('POST', '/v2/tag-groups/public', { title: 'Topic', prompt: 'What the conversation is about.', multiselect: true });
  const ids = new Map<string, string>();
  for (const tagName of TAGS) ids.set(tagName, (await call<{ id: string }>('POST', `/v2/tag-groups/${group.id}/tags/public`, { tagName })).id);
  return ids;
}

/** What the customer says, on the day of the run. */
const say = (said: Said, today: Date) => (typeof said === 'string' ? said : said(today));

/** `orderNumber`, `order_number` -> "order number" (a question's field names what it asks too). */
const humanize = (field: string | undefined) => (field ?? '').replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ').toLowerCase();

const DAY = 86_400_000;

/** The number a stored value holds: a number, or a short text with exactly one number in it ("order 48213", "$149.99"). */
function numberIn(value: unknown): number | null {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string' || value.trim().split(/\s+/).length > 4) return null;
  const numbers = value.replace(/(\d),(\d{3})\b/g, '$1$2').match(/\d+(?:\.\d+)?/g) ?? [];
  return numbers.length === 1 ? Number(numbers[0]) : null;
}

/** Days between today and a stored date (negative in the past), when the value reads as a date. */
function daysFromToday(value: unknown, today: Date): number | null {
  if (typeof value !== 'string' || !/\d{4}|[a-z]{3}/i.test(value) || !/\d/.test(value)) return null;
  const parsed = Date.parse(value);
  if (Number.isNaN(parsed)) return null;
  const midnight = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  return Math.round((parsed - midnight) / DAY);
}

/** Whether a stored value is the expected one (docs in rules-cases.ts). */
export function accepts(expected: Expected, value: unknown, today: Date): boolean {
  if ('number' in expected) {
    const n = numberIn(value);
    return n !== null && Math.abs(n - expected.number) <= (expected.tolerance ?? 0.001);
  }
  if ('daysAgo' in expected || 'daysAhead' in expected) {
    const days = 'daysAgo' in expected ? -expected.daysAgo : expected.daysAhead;
    const tolerance = expected.tolerance ?? 1;
    const n = numberIn(value);
    if (n !== null && Math.abs(n - Math.abs(days)) <= tolerance) return true;
    const offset = daysFromToday(value, today);
    return offset !== null && Math.abs(offset - days) <= tolerance;
  }
  if ('yes' in expected) {
    if (typeof value === 'boolean') return value === expected.yes;
    return typeof value === 'string' && (expected.yes ? /^(yes|true|y)$/i : /^(no|false|n)$/i).test(value.trim());
  }
  return typeof value === 'string' && value.toLowerCase().includes(expected.text.toLowerCase());
}

const describe = (e: Expected) =>
  'number' in e ? String(e.number) : 'daysAgo' in e ? `${e.daysAgo} days ago` : 'daysAhead' in e ? `${e.daysAhead} days ahead` : 'yes' in e ? String(e.yes) : JSON.stringify(e.text);

interface BranchRun {
  label: string;
  turns: { customer: string; replies: string[]; status: string }[];
  trigger: TestAnswer['trigger'] | null;
  status: string;
  collected: Record<string, unknown>;
  tagIds: string[];
  escalation: Walk['escalation'];
}

/** Runs one path: the opener, then the scripted answer to each question, until the walk stops waiting. */
async function runBranch(
  test: (message: string, state: unknown) => Promise<TestAnswer>,
  kase: RuleCase,
  branch: Branch,
  tagIds: Map<string, string>,
  today: Date,
  findings: Finding[],
): Promise<BranchRun> {
  const opener = branch.opener ?? kase.opener;
  const run: BranchRun = { label: branch.label, turns: [], trigger: null, status: 'not run', collected: {}, tagIds: [], escalation: null };
  const questions: string[] = [];
  const statements: string[] = [];
  const gaveUp: string[] = [];
  const tags = new Set<string>();
  const answered = new Set<string>();
  let message = opener;
  let state: unknown = null;
  const where = `[${branch.label}]`;
  let stopped = false;
  for (let turn = 0; turn < 10 && !stopped; turn++) {
    const answer = await test(message, state);
    if (turn === 0) {
      run.trigger = answer.trigger;
      if (!answer.trigger.matched) {
        const fragment = kase.instruction.split('\n')[0];
        findings.push({ kind: 'no-trigger', detail: `does not fire on "${clip(opener, 50)}" (score ${answer.trigger.score.toFixed(2)})`, fragment });
      }
    }
    const walk = answer.walk;
    if (!walk) {
      run.status = 'no flow';
      findings.push({ kind: 'no-flow', detail: 'the draft has no flow', harm: 'dropped', fragment: branch.fragment });
      return run;
    }
    for (const step of walk.steps) {
      if (step.type === 'collect' && step.reply) questions.push(step.reply);
      else if (step.reply) statements.push(step.reply);
      if (step.type === 'collect' && step.action === 'gave_up') gaveUp.push(step.field ?? '?');
    }
    for (const id of [...walk.tagIds, ...walk.state.tagIds]) tags.add(id);
    run.turns.push({ customer: message, replies: walk.replies, status: walk.status });
    run.status = walk.status;
    run.collected = walk.state.collected;
    run.escalation = walk.escalation;
    state = walk.state;
    if (walk.status !== 'waiting_for_input') break;
    const question = walk.replies.at(-1) ?? '';
    const asked = `${question} (${humanize(walk.state.waitingFor?.field)})`;
    const keys = Object.keys(kase.asks).filter((k) => kase.asks[k]!.test(asked));
    const fresh = keys.filter((k) => !answered.has(k));
    const chosen = fresh.length ? fresh : keys;
    if (chosen.length === 0) {
      findings.push({ kind: 'unexpected-question', detail: `${where} asked "${clip(question, 70)}", which the instruction does not ask for`, fragment: branch.fragment });
      stopped = true;
    } else if (turn === 9) {
      findings.push({ kind: 'keeps-asking', detail: `${where} still asking after 9 answers: "${clip(question, 60)}"`, fragment: branch.fragment });
      stopped = true;
    }
    for (const k of chosen) answered.add(k);
    message = chosen.map((k) => say(branch.answers[k]!, today)).join('. ');
  }
  run.tagIds = [...tags];

  const said = statements.join('\n');
  const outcome = branch.outcome;
  if (stopped) {
    // The script could not go on: the finding is recorded, the outcome is unknown.
  } else if (gaveUp.length) {
    findings.push({ kind: 'value-not-read', detail: `${where} could not read the answer for ${gaveUp.join(', ')} and handed over`, fragment: branch.fragment });
  } else if ('handover' in outcome) {
    if (run.status !== 'escalated') {
      findings.push(
        statements.length
          ? { kind: 'answered-instead-of-handover', detail: `${where} says "${clip(said, 70)}" instead of handing over`, harm: 'active', fragment: branch.fragment }
          : { kind: 'handover-dropped', detail: `${where} ends (${run.status}) without handing over or saying anything`, harm: 'dropped', fragment: branch.fragment },
      );
    }
  } else if (run.status === 'escalated') {
    findings.push({ kind: 'handover-instead-of-reply', detail: `${where} hands over where the lead asked for a reply`, harm: 'active', fragment: branch.fragment });
  } else if (statements.length === 0) {
    findings.push({ kind: 'reply-dropped', detail: `${where} ends (${run.status}) without saying anything`, harm: 'dropped', fragment: branch.fragment });
  } else {
    const missing = outcome.says.filter((p) => !p.test(said));
    if (missing.length) findings.push({ kind: 'wrong-reply', detail: `${where} says "${clip(said, 70)}", not /${missing[0]!.source}/`, fragment: branch.fragment });
  }
  const all = [...questions, ...statements];
  const promised = all.find((text) => firstMatch(text, branch.never ?? []));
  if (promised) findings.push({ kind: 'says-what-was-reserved', detail: `${where} says "${clip(promised, 70)}"`, harm: 'active' });
  const leaked = all.find((text) => firstMatch(text, INSTRUCTION_WORDS));
  if (leaked) findings.push({ kind: 'instruction-words-in-reply', detail: `${where} "${clip(leaked, 70)}"`, harm: 'active' });

  for (const [key, expected] of Object.entries(branch.values ?? {})) {
    if (!Object.values(run.collected).some((v) => accepts(expected, v, today))) {
      findings.push({ kind: 'value-not-extracted', detail: `${where} ${key} ${describe(expected)} not stored (stored ${clip(JSON.stringify(run.collected), 80)})`, fragment: branch.fragment });
    }
  }
  const expectedTags = branch.tags ?? [];
  const caseTags = new Set(kase.branches.flatMap((b) => b.tags ?? []));
  for (const name of expectedTags) {
    if (!tags.has(tagIds.get(name)!)) findings.push({ kind: 'tag-missing', detail: `${where} not tagged ${name}`, fragment: branch.fragment });
  }
  for (const name of caseTags) {
    if (!expectedTags.includes(name) && tags.has(tagIds.get(name)!)) findings.push({ kind: 'tag-wrong', detail: `${where} tagged ${name} on a path that should not be`, fragment: branch.fragment });
  }
  return run;
}

/** Drafts the rule, runs every path and the unrelated question, and scores the case. */
export async function runRuleCase(call: Call, kase: RuleCase, tagIds: Map<string, string>, today: Date): Promise<CaseResult> {
  const started = performance.now();
  const findings: Finding[] = [];
  const detail: Record<string, unknown> = { instruction: kase.instruction };
  let warnings: string[] = [];
  try {
    const draft = await call<Draft>('POST', '/v2/hc-rules/draft/public', { behaviorInstructions: kase.instruction });
    warnings = readWarnings(draft);
    Object.assign(detail, { name: draft.name, description: draft.description, flowConfig: draft.flowConfig });
    const words = draft.name.trim().split(/\s+/).length;
    if (!kase.name.test(draft.name) || words > 8 || draft.name.length > 60) {
      findings.push({ kind: 'name', detail: `named "${clip(draft.name, 70)}"` });
    }
    const context = { time: { date: today.toISOString().slice(0, 10), hour: today.getUTCHours(), weekday: today.getUTCDay() } };
    const test = (message: string, state: unknown) =>
      call<TestAnswer>('POST', `/v2/hc-rules/${draft.id}/test/public`, { message, context, ...(state ? { state } : {}) });
    const branches: BranchRun[] = [];
    detail.branches = branches;
    for (const branch of kase.branches) {
      try {
        branches.push(await runBranch(test, kase, branch, tagIds, today, findings));
      } catch (error) {
        findings.push({ kind: 'api-error', detail: `[${branch.label}] ${messageOf(error)}` });
      }
      if (findings.some((f) => f.kind === 'no-flow')) break;
    }
    const unrelated = await test(kase.unrelated, null);
    detail.unrelated = { message: kase.unrelated, trigger: unrelated.trigger };
    if (unrelated.trigger.matched) {
      findings.push({ kind: 'fires-on-unrelated', detail: `fires on "${kase.unrelated}" (score ${unrelated.trigger.score.toFixed(2)}: ${clip(unrelated.trigger.reason, 60)})`, harm: 'active' });
    }
  } catch (error) {
    findings.push({ kind: 'api-error', detail: messageOf(error) });
  }
  // One no-trigger finding per opener is enough.
  const deduped = findings.filter((f, i) => findings.findIndex((g) => g.kind === f.kind && g.detail === f.detail) === i);
  return { id: kase.id, heldOut: kase.heldOut, ...decide(deduped, warnings), findings: deduped, warnings, ms: performance.now() - started, detail };
}
