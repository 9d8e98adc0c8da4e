// The condition language of src/evaluators/conditions.ts: every operator with every data type that
// takes it, scopes, missing paths and type mismatches (false, never a throw), and validation.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type ConditionGroup, conditionGroupsSchema, conditionsHold, evaluateConditions, evaluatePredicate, type Predicate, regexProblem } from '../../src/evaluators/conditions.js';
import { interpolate, MISSING, resolvePath } from '../../src/evaluators/context.js';

const context = {
  message: { content: 'Hello, I want a REFUND for order-1234', language: 'en' },
  conversation: { id: 'c1', turn: 3, channel: 'email' },
  userAttributes: { plan: 'Pro', seats: 12, vip: true, since: '2024-05-01', nothing: null, tagsList: ['Beta', 'EU'] },
  attributes: { order: { items: [{ sku: 'A-1', qty: 2 }, { sku: 'B-2', qty: 5 }], total: 99.5 } },
  tags: { Topic: ['Billing', 'Refund'], Empty: [] },
  time: { hour: 14, weekday: 2, date: '2026-11-24' },
};

type Row = [path: string, dataType: Predicate['left']['dataType'], operator: Predicate['operator'], value: unknown, expected: boolean];
const holds = (scope: ConditionGroup['scope'], [path, dataType, operator, value]: Row, ctx: unknown = context) =>
  evaluatePredicate(scope, { left: { path, dataType }, operator, ...(value === undefined ? {} : { right: { value } }) }, ctx);

const SCALAR_ROWS: Row[] = [
  // string
  ['userAttributes.plan', 'string', '==', 'pro', true],
  ['userAttributes.plan', 'string', '==', 'free', false],
  ['userAttributes.plan', 'string', '!=', 'free', true],
  ['userAttributes.plan', 'string', '!=', 'PRO', false],
  ['userAttributes.plan', 'string', '<', 'q', true],
  ['userAttributes.plan', 'string', '<', 'a', false],
  ['userAttributes.plan', 'string', '<=', 'pro', true],
  ['userAttributes.plan', 'string', '>', 'a', true],
  ['userAttributes.plan', 'string', '>=', 'z', false],
  ['message.content', 'string', 'contains', 'refund', true],
  ['message.content', 'string', 'contains', 'cancel', false],
  ['message.content', 'string', 'not_contains', 'cancel', true],
  ['message.content', 'string', 'not_contains', 'REFUND', false],
  ['message.content', 'string', 'starts_with', 'hello', true],
  ['message.content', 'string', 'starts_with', 'bye', false],
  ['message.content', 'string', 'ends_with', '1234', true],
  ['message.content', 'string', 'ends_with', 'hello', false],
  ['userAttributes.plan', 'string', 'in', ['free', 'PRO'], true],
  ['userAttributes.plan', 'string', 'in', ['free'], false],
  ['userAttributes.plan', 'string', 'not_in', ['free'], true],
  ['userAttributes.plan', 'string', 'not_in', ['pro'], false],
  ['message.content', 'string', 'matches', 'order-\\d{4}$', true],
  ['message.content', 'string', 'matches', '^refund', false],
  ['userAttributes.plan', 'string', 'exists', undefined, true],
  ['userAttributes.nothing', 'string', 'exists', undefined, false],
  ['userAttributes.missing', 'string', 'not_exists', undefined, true],
  ['userAttributes.plan', 'string', 'not_exists', undefined, false],
  // number
  ['userAttributes.seats', 'number', '==', 12, true],
  ['userAttributes.seats', 'number', '==', 11, false],
  ['userAttributes.seats', 'number', '!=', 11, true],
  ['userAttributes.seats', 'number', '!=', 12, false],
  ['userAttributes.seats', 'number', '<', 13, true],
  ['userAttributes.seats', 'number', '<', 12, false],
  ['userAttributes.seats', 'number', '<=', 12, true],
  ['userAttributes.seats', 'number', '>', 12, false],
  ['userAttributes.seats', 'number', '>=', 12, true],
  ['attributes.order.total', 'number', '>', 99, true],
  ['userAttributes.seats', 'number', 'in', [1, 12], true],
  ['userAttributes.seats', 'number', 'in', [1, 2], false],
  ['userAttributes.seats', 'number', 'not_in', [1, 2], true],
  ['userAttributes.seats', 'number', 'exists', undefined, true],
  ['userAttributes.seatz', 'number', 'not_exists', undefined, true],
  // boolean
  ['userAttributes.vip', 'boolean', '==', true, true],
  ['userAttributes.vip', 'boolean', '==', false, false],
  ['userAttributes.vip', 'boolean', '!=', false, true],
  ['userAttributes.vip', 'boolean', 'in', [true], true],
  ['userAttributes.vip', 'boolean', 'not_in', [true], false],
  ['userAttributes.vip', 'boolean', 'exists', undefined, true],
  // date
  ['userAttributes.since', 'date', '==', '2024-05-01T00:00:00Z', true],
  ['userAttributes.since', 'date', '!=', '2024-05-02', true],
  ['userAttributes.since', 'date', '<', '2025-01-01', true],
  ['userAttributes.since', 'date', '<', '2024-01-01', false],
  ['userAttributes.since', 'date', '<=', '2024-05-01', true],
  ['time.date', 'date', '>', '2026-11-01', true],
  ['time.date', 'date', '>=', '2026-12-01', false],
  ['time.date', 'date', 'exists', undefined, true],
  // array
  ['tags.Topic', 'array', 'contains', 'refund', true],
  ['tags.Topic', 'array', 'contains', 'shipping', false],
  ['tags.Topic', 'array', 'not_contains', 'shipping', true],
  ['tags.Topic', 'array', '==', ['billing', 'Refund'], true],
  ['tags.Topic', 'array', '==', ['Refund', 'Billing'], false],
  ['tags.Topic', 'array', '!=', ['Billing'], true],
  ['tags.Topic', 'array', 'in', ['Billing', 'Refund', 'Other'], true],
  ['tags.Topic', 'array', 'in', ['Billing'], false],
  ['tags.Topic', 'array', 'not_in', ['Other'], true],
  ['tags.Topic', 'array', 'not_in', ['billing'], false],
  ['tags.Empty', 'array', 'exists', undefined, true],
  ['attributes.order.items[1].sku', 'string', '==', 'b-2', true],
  ['attributes.order.items[1].qty', 'number', '>', 4, true],
];

describe('operators by data type (SCALAR)', () => {
  for (const row of SCALAR_ROWS) {
    const [path, dataType, operator, value, expected] = row;
    it(`${path} ${dataType} ${operator} ${JSON.stringify(value)} -> ${expected}`, () => {
      const result = holds('SCALAR', row);
      assert.equal(result.holds, expected);
      const group: ConditionGroup[] = [{ scope: 'SCALAR', predicate: [{ left: { path, dataType }, operator, ...(value === undefined ? {} : { right: { value } }) }] }];
      assert.equal(conditionsHold(group, context), expected, 'the fast path agrees with the trace');
      assert.equal(evaluateConditions(group, context).holds, expected);
      assert.ok(conditionGroupsSchema.safeParse(group).success, 'the row is valid in the language');
    });
  }
});

describe('scopes ANY and ALL', () => {
  it('compare the items of an array', () => {
    assert.equal(holds('ANY', ['tags.Topic', 'string', '==', 'refund', true]).holds, true);
    assert.equal(holds('ALL', ['tags.Topic', 'string', '==', 'refund', true]).holds, false);
    assert.equal(holds('ALL', ['userAttributes.tagsList', 'string', 'in', ['beta', 'eu'], true]).holds, true);
    assert.equal(holds('ANY', ['tags.Topic', 'string', 'starts_with', 'ref', true]).holds, true);
  });
  it('hold for neither on an empty array, and mismatch on a non-array', () => {
    assert.equal(holds('ANY', ['tags.Empty', 'string', '==', 'x', true]).holds, false);
    assert.equal(holds('ALL', ['tags.Empty', 'string', '==', 'x', true]).holds, false);
    assert.deepEqual([holds('ANY', ['userAttributes.plan', 'string', '==', 'pro', true]).holds, holds('ANY', ['userAttributes.plan', 'string', '==', 'pro', true]).reason], [false, 'type_mismatch']);
  });
});

describe('missing paths and type mismatches', () => {
  it('are false with a reason, never a throw', () => {
    const missing = holds('SCALAR', ['userAttributes.unknown', 'string', '==', 'x', true]);
    assert.deepEqual([missing.holds, missing.reason, missing.found, missing.left], [false, 'missing', false, null]);
    const nullValue = holds('SCALAR', ['userAttributes.nothing', 'string', '!=', 'x', true]);
    assert.deepEqual([nullValue.holds, nullValue.reason, nullValue.found], [false, 'missing', true]);
    for (const [path, dataType] of [['userAttributes.plan', 'number'], ['userAttributes.seats', 'string'], ['userAttributes.plan', 'boolean'], ['userAttributes.plan', 'date'], ['userAttributes.plan', 'array']] as const) {
      const result = holds('SCALAR', [path, dataType, '==', dataType === 'array' ? ['x'] : 1, true]);
      assert.deepEqual([result.holds, result.reason, result.left], [false, 'type_mismatch', (context.userAttributes as Record<string, unknown>)[path.split('.')[1]!]], `${path} as ${dataType}`);
    }
    assert.equal(holds('SCALAR', ['message.content', 'string', 'contains', 'x', true], null).reason, 'missing');
    assert.equal(holds('SCALAR', ['message.content', 'string', 'contains', 'x', true], 'not an object').reason, 'missing');
  });
  it('never read prototype properties', () => {
    assert.equal(resolvePath(context, 'userAttributes.constructor'), MISSING);
    assert.equal(resolvePath(context, 'userAttributes.__proto__'), MISSING);
    assert.equal(holds('SCALAR', ['userAttributes.toString', 'string', 'exists', undefined, false]).holds, false);
  });
});

describe('groups', () => {
  const p = (path: string, operator: Predicate['operator'], value: unknown): Predicate => ({ left: { path, dataType: 'string' }, operator, right: { value } });
  it('hold when any group holds, a group when all its predicates hold; an empty group never holds', () => {
    const groups: ConditionGroup[] = [
      { scope: 'SCALAR', predicate: [p('userAttributes.plan', '==', 'pro'), p('conversation.channel', '==', 'chat')] },
      { scope: 'SCALAR', predicate: [] },
      { scope: 'SCALAR', predicate: [p('conversation.channel', '==', 'email'), p('message.content', 'contains', 'refund')] },
    ];
    const result = evaluateConditions(groups, context);
    assert.deepEqual([result.holds, result.groups.map((g) => g.holds)], [true, [false, false, true]]);
    assert.deepEqual(result.groups[0]!.predicates.map((x) => [x.left, x.holds]), [['Pro', true], ['email', false]]);
    assert.equal(conditionsHold(groups, context), true);
    assert.equal(conditionsHold([groups[0]!, groups[1]!], context), false);
    assert.equal(evaluateConditions([], context).holds, false);
  });
});

describe('validation', () => {
  const issues = (groups: unknown) => {
    const r = conditionGroupsSchema.safeParse(groups);
    return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  };
  const pred = (path: string, dataType: string, operator: string, value?: unknown) => ({ left: { path, dataType }, operator, ...(value === undefined ? {} : { right: { value } }) });
  const one = (...predicate: object[]) => [{ scope: 'SCALAR', predicate }];
  it('names the exact position of each problem', () => {
    assert.match(issues([{ scope: 'SCALAR', predicate: [] }, { scope: 'SCALAR', predicate: [pred('message.content', 'string', 'like', 'x')] }])[0]!, /^1\.predicate\.0\.operator: Invalid option/);
    assert.match(issues([{ scope: 'SOME', predicate: [] }])[0]!, /^0\.scope: /);
    assert.match(issues(one(pred('message.content', 'text', '==', 'x')))[0]!, /^0\.predicate\.0\.left\.dataType: /);
    assert.deepEqual(issues(one(pred('weather.rain', 'string', '==', 'x'))), ['0.predicate.0.left.path: "weather.rain" is outside the evaluation context: a path starts with one of message, conversation, userAttributes, attributes, tags, rule, time']);
    assert.match(issues(one(pred('conversation.mood', 'string', '==', 'x')))[0]!, /^0\.predicate\.0\.left\.path: "conversation\.mood" is not a field of conversation/);
    assert.match(issues(one(pred('time', 'number', '==', 1)))[0]!, /names the whole time namespace/);
    assert.match(issues(one(pred('a..b', 'string', '==', 'x')))[0]!, /is not a path/);
    assert.deepEqual(issues(one(pred('userAttributes.vip', 'boolean', '>', true))), ['0.predicate.0.operator: operator > does not apply to dataType boolean; use one of ==, !=, in, not_in, exists, not_exists']);
    assert.deepEqual(issues(one(pred('userAttributes.seats', 'number', '==', '12'))), ['0.predicate.0.right.value: right.value must be a number for dataType number']);
    assert.deepEqual(issues(one(pred('userAttributes.seats', 'number', '<'))), ['0.predicate.0.right.value: operator < needs right.value']);
    assert.deepEqual(issues(one(pred('userAttributes.plan', 'string', 'in', 'pro'))), ['0.predicate.0.right.value: operator in needs right.value to be an array']);
    assert.deepEqual(issues(one(pred('userAttributes.since', 'date', '<', 'tomorrow'))), ['0.predicate.0.right.value: right.value must be an ISO 8601 date for dataType date']);
    assert.match(issues([{ scope: 'ALL', predicate: [pred('tags.Topic', 'array', 'contains', 'x')] }])[0]!, /^0\.predicate\.0\.left\.dataType: scope ALL compares the items/);
    assert.deepEqual(issues(one(pred('userAttributes.plan', 'string', 'exists'))), []);
  });
  it('refuses regular expressions that can backtrack catastrophically, or are too long, and accepts ordinary ones', () => {
    for (const bad of ['(a+)+$', '(a|aa)*', '(\\w+\\s?)*$', '(a)\\1', '((ab)*)+', '(x+x+)+y']) assert.ok(regexProblem(bad), bad);
    for (const good of ['^order-\\d{4}$', '(refund|return)s?', '[a-z]+@example\\.com', '\\b(human|agent)\\b', '^(?=[\\s\\S]*\\bparcel)(?=[\\s\\S]*\\bdamag)']) assert.equal(regexProblem(good), null, good);
    assert.match(regexProblem('a'.repeat(201))!, /at most 200 characters/);
    assert.match(regexProblem('(')!, /not a valid regular expression/);
  });
});

describe('interpolate', () => {
  it('fills strings, numbers and objects, and leaves missing paths empty (collecting them)', () => {
    const missing: string[] = [];
    assert.equal(interpolate('Plan ${userAttributes.plan}, seats ${ userAttributes.seats }, first ${attributes.order.items[0]}, none "${rule.x}"', context, missing), 'Plan Pro, seats 12, first {"sku":"A-1","qty":2}, none ""');
    assert.deepEqual(missing, ['rule.x']);
  });
});
