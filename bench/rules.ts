// Rule evaluation time per customer message: 100 reply-rule condition groups (with and without
// the trace), a 50-node rule flow walked end to end, and guardrails, next to the budget the issue
// sets: far below 1 ms (1,000 µs) per message. Pure CPU, one process, no I/O.
//
//   npm run bench:rules            (PARLEY_BENCH_ITERATIONS to change the 20,000 measured runs)
import type { ConditionGroup, Predicate } from '../src/evaluators/conditions.js';
import type { EvaluationContext } from '../src/evaluators/context.js';
import type { FlowNode } from '../src/evaluators/flow.js';
import { flowConfigSchema, flowNodes } from '../src/evaluators/flow.js';
import { type Guardrail, runGuardrails } from '../src/evaluators/guardrails.js';
import { chooseReplyType, type ReplySlot, replyTypeFor } from '../src/evaluators/reply.js';
import { dryRunTools, walkFlow } from '../src/evaluators/walker.js';
import { positiveIntEnv, writeResults } from './support.js';

const ITERATIONS = positiveIntEnv('PARLEY_BENCH_ITERATIONS', 20_000);
const WARMUP = Math.min(2_000, ITERATIONS);
const BUDGET_US = 1_000;

// ---------------------------------------------------------------------------------------------
// Inputs

const p = (path: string, dataType: Predicate['left']['dataType'], operator: Predicate['operator'], value?: unknown): Predicate => ({
  left: { path, dataType },
  operator,
  ...(value === undefined ? {} : { right: { value } }),
});

/** A realistic mix: text tests, numbers, booleans, dates, tags, regexes; 2 or 3 predicates a group. */
function group(i: number): ConditionGroup {
  const kinds: Predicate[][] = [
    [p('message.content', 'string', 'contains', `refund ${i}`), p('conversation.channel', 'string', '==', 'email')],
    [p('userAttributes.plan', 'string', 'in', ['enterprise', `plan-${i}`]), p('conversation.turn', 'number', '>', 3)],
    [p('message.content', 'string', 'matches', `^(thanks|thank you)( ${i})?[.!]*$`), p('userAttributes.isVip', 'boolean', '==', true)],
    [p('time.date', 'date', '<', '2026-01-01'), p('time.hour', 'number', '>=', 18), p('time.weekday', 'number', 'in', [0, 6])],
    [{ ...p('tags.Topic', 'string', '==', `billing-${i}`) }, p('attributes.order.status', 'string', 'starts_with', 'cancel')],
  ];
  const predicate = kinds[i % kinds.length]!;
  return { scope: i % 5 === 4 ? 'ANY' : 'SCALAR', predicate: i % 5 === 4 ? [p('tags.Topic', 'string', '==', `billing-${i}`)] : predicate };
}

const slots: ReplySlot[] = [
  { replyType: 'NO_REPLY', isEnabled: true, conditions: Array.from({ length: 34 }, (_, i) => group(i)) },
  { replyType: 'INTERNAL_COMMENT', isEnabled: true, conditions: Array.from({ length: 33 }, (_, i) => group(i + 34)) },
  { replyType: 'DIRECT_REPLY', isEnabled: true, conditions: Array.from({ length: 33 }, (_, i) => group(i + 67)) },
];

const MESSAGES = [
  'Hi, I would like a refund for my last order, it arrived broken',
  'Thanks!',
  'Where is my parcel? I ordered it two weeks ago and nothing has arrived yet.',
  'Can I change the email address on my account to a new one?',
  'Please cancel my subscription at the end of this month, thank you',
];
const contexts: EvaluationContext[] = Array.from({ length: 50 }, (_, i) => ({
  message: { content: MESSAGES[i % MESSAGES.length]!, language: 'en' },
  conversation: { id: `c${i}`, turn: 1 + (i % 6), channel: i % 2 ? 'chat' : 'email', source: 'api', status: 'Waiting for Customer' },
  userAttributes: { plan: i % 3 ? 'pro' : 'enterprise', isVip: i % 4 === 0, country: 'DE' },
  attributes: { order: { status: i % 7 ? 'shipped' : 'cancelled', total: 40 + i } },
  tags: { Topic: [i % 2 ? 'billing' : 'shipping'] },
  time: { hour: i % 24, weekday: i % 7, date: '2026-11-24' },
}));

/**
 * A 50-node flow within the depth limit (30): a chain of 26 nodes (known fields, interpolated
 * replies, tags, a tool) whose 8 conditions each branch into a reply (then) or a tag and a reply
 * (else), taking both ways across the run.
 */
function fiftyNodeFlow(): FlowNode {
  let node: FlowNode = { id: 'n26', type: 'end', message: 'Anything else I can help with, ${rule.name}?' };
  for (let i = 25; i >= 1; i -= 1) {
    const id = `n${i}`;
    if (i % 3 === 2) {
      node = {
        id,
        type: 'condition',
        conditions: [{ scope: 'SCALAR', predicate: [p('rule.amount', 'number', '>', i * 10), p('message.content', 'string', 'contains', 'order')] }],
        then: { id: `${id}t`, type: 'message', message: `Amount \${rule.amount} is over ${i * 10}.` },
        else: { id: `${id}e`, type: 'tag', tagIds: ['a0000000-0000-4000-8000-000000000201'], next: { id: `${id}m`, type: 'message', message: 'Noted, ${userAttributes.plan} customer.' } },
        next: node,
      };
      continue;
    }
    switch (i % 4) {
      case 0:
        node = { id, type: 'collect', field: `f${i}`, question: `Question ${i}?`, dataType: 'string', required: true, next: node };
        break;
      case 1:
        node = { id, type: 'message', message: `Step ${i} for order \${rule.orderNumber} on \${conversation.channel}.`, next: node };
        break;
      case 2:
        node = { id, type: 'tag', tagIds: ['a0000000-0000-4000-8000-000000000201'], next: node };
        break;
      default:
        node = { id, type: 'tool', toolId: 'a0000000-0000-4000-8000-0000000000ff', inputs: { order: '${rule.orderNumber}', amount: '${rule.amount}' }, next: node };
    }
  }
  return node;
}
const flow = flowConfigSchema.parse(fiftyNodeFlow());
if (flowNodes(flow).length !== 50) throw new Error(`the bench flow has ${flowNodes(flow).length} nodes, not 50`);
const known: Record<string, unknown> = { orderNumber: 'A-1001', amount: 120, name: 'Jane' };
for (const { node } of flowNodes(flow)) if (node.type === 'collect') known[node.field] = 'given';

const guardrails: Guardrail[] = [
  { id: 'g1', name: 'PII', kind: 'pii_redaction', stage: 'input', action: 'redact', config: { types: ['email', 'phone', 'card', 'iban', 'ssn'] }, isEnabled: true },
  { id: 'g2', name: 'Topics', kind: 'blocked_topics', stage: 'input', action: 'block', config: { topics: ['politics, elections, voting', 'medical advice', 'credit card fraud'] }, isEnabled: true },
  { id: 'g3', name: 'Phrases', kind: 'blocked_phrases', stage: 'input', action: 'flag', config: { phrases: ['lawyer', 'lawsuit', 'chargeback', 'scam'] }, isEnabled: true },
];

// ---------------------------------------------------------------------------------------------
// Measuring

function percentiles(samples: number[]): { p50: number; p99: number; mean: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { p50: at(0.5), p99: at(0.99), mean: samples.reduce((a, b) => a + b, 0) / samples.length };
}

async function measure(run: (i: number) => unknown): Promise<{ p50: number; p99: number; mean: number }> {
  for (let i = 0; i < WARMUP; i += 1) await run(i);
  const samples: number[] = [];
  for (let i = 0; i < ITERATIONS; i += 1) {
    const start = process.hrtime.bigint();
    await run(i);
    samples.push(Number(process.hrtime.bigint() - start) / 1_000);
  }
  return percentiles(samples);
}

const cases: [string, (i: number) => unknown][] = [
  ['100 reply-rule groups (decision only)', (i) => replyTypeFor(slots, contexts[i % contexts.length])],
  ['100 reply-rule groups (with the trace)', (i) => chooseReplyType(slots, contexts[i % contexts.length])],
  ['50-node flow, walked end to end', (i) => walkFlow(flow, { message: MESSAGES[i % MESSAGES.length]!, context: { ...contexts[i % contexts.length], rule: known } }, dryRunTools)],
  ['3 input guardrails (PII, topics, phrases)', (i) => runGuardrails(guardrails, { stage: 'input', text: `${MESSAGES[i % MESSAGES.length]} mail me at jane@example.com or +44 20 7946 0958` })],
];

const startedAt = new Date();
const rows: { case: string; p50: number; p99: number; mean: number }[] = [];
for (const [name, run] of cases) rows.push({ case: name, ...(await measure(run)) });

const header = ['case', 'p50 µs', 'p99 µs', 'mean µs', 'budget µs', 'p99 / budget'];
const body = rows.map((r) => [r.case, r.p50.toFixed(1), r.p99.toFixed(1), r.mean.toFixed(1), String(BUDGET_US), `${((r.p99 / BUDGET_US) * 100).toFixed(1)}%`]);
const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
console.log(`\nRule evaluation per message (${ITERATIONS} runs after ${WARMUP} warm-up, Node ${process.version})`);
console.log(line(header));
for (const row of body) console.log(line(row));
await writeResults('rules', startedAt, { iterations: ITERATIONS, budgetUs: BUDGET_US, rows });
