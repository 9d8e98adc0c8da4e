import { z } from 'zod';
import { cachedPath, MISSING, pathProblem, resolvePath } from './context.js';

/**
 * The condition language of reply rules and rule flows (wave2-decisions §3, docs/rules.md).
 * `conditionGroupsSchema` validates it on the way in (a 400 names the exact position); the
 * evaluator never throws at run time: a missing path or a type mismatch makes a predicate false.
 */

export const CONDITION_SCOPES = ['SCALAR', 'ANY', 'ALL'] as const;
export const CONDITION_DATA_TYPES = ['string', 'number', 'boolean', 'date', 'array'] as const;
export const CONDITION_OPERATORS = [
  '==',
  '!=',
  '<',
  '<=',
  '>',
  '>=',
  'contains',
  'not_contains',
  'starts_with',
  'ends_with',
  'in',
  'not_in',
  'matches',
  'exists',
  'not_exists',
] as const;

export type ConditionScope = (typeof CONDITION_SCOPES)[number];
export type ConditionDataType = (typeof CONDITION_DATA_TYPES)[number];
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];

/** Which operators each data type takes (anything else is a 400 at save time). */
export const OPERATORS_BY_TYPE: Readonly<Record<ConditionDataType, readonly ConditionOperator[]>> = {
  string: CONDITION_OPERATORS,
  number: ['==', '!=', '<', '<=', '>', '>=', 'in', 'not_in', 'exists', 'not_exists'],
  boolean: ['==', '!=', 'in', 'not_in', 'exists', 'not_exists'],
  date: ['==', '!=', '<', '<=', '>', '>=', 'exists', 'not_exists'],
  array: ['contains', 'not_contains', '==', '!=', 'in', 'not_in', 'exists', 'not_exists'],
};

/** Limits of one conditions array. */
export const CONDITION_LIMITS = { groups: 100, predicates: 50, regexChars: 200, listItems: 500, matchInputChars: 10_000 } as const;

export interface Predicate {
  left: { path: string; dataType: ConditionDataType };
  operator: ConditionOperator;
  right?: { value?: unknown };
}

export interface ConditionGroup {
  scope: ConditionScope;
  predicate: Predicate[];
}

const scalarValue = z.union([z.string().max(10_000), z.number(), z.boolean(), z.null()]);

const predicateSchema = z
  .object({
    left: z.object({
      path: z.string().min(1).max(300),
      dataType: z.enum(CONDITION_DATA_TYPES),
    }),
    operator: z.enum(CONDITION_OPERATORS),
    right: z
      .object({ value: z.union([scalarValue, z.array(scalarValue).max(CONDITION_LIMITS.listItems)]).optional() })
      .optional(),
  })
  .superRefine((p, ctx) => {
    const problem = pathProblem(p.left.path);
    if (problem) ctx.addIssue({ code: 'custom', path: ['left', 'path'], message: problem });
    if (!OPERATORS_BY_TYPE[p.left.dataType].includes(p.operator)) {
      ctx.addIssue({
        code: 'custom',
        path: ['operator'],
        message: `operator ${p.operator} does not apply to dataType ${p.left.dataType}; use one of ${OPERATORS_BY_TYPE[p.left.dataType].join(', ')}`,
      });
      return;
    }
    const problemOfRight = rightValueProblem(p.left.dataType, p.operator, p.right?.value);
    if (problemOfRight) ctx.addIssue({ code: 'custom', path: ['right', 'value'], message: problemOfRight });
  });

const groupSchema = z
  .object({
    scope: z.enum(CONDITION_SCOPES),
    predicate: z.array(predicateSchema).max(CONDITION_LIMITS.predicates),
  })
  .superRefine((g, ctx) => {
    if (g.scope === 'SCALAR') return;
    g.predicate.forEach((p, i) => {
      if (p.left.dataType === 'array') {
        ctx.addIssue({
          code: 'custom',
          path: ['predicate', i, 'left', 'dataType'],
          message: `scope ${g.scope} compares the items of an array: dataType is the items' type (string, number, boolean or date), not array`,
        });
      }
    });
  });

/** One condition group, `ConditionGroup` in the OpenAPI document (reply rules answer their conditions as these). */
export const conditionGroupSchema = groupSchema.meta({
  id: 'ConditionGroup',
  description: 'Holds when all its predicates hold (docs/rules.md "Conditions").',
});

/** An array of condition groups: the whole holds when any group holds; a group when all its predicates hold. */
export const conditionGroupsSchema = z.array(conditionGroupSchema).max(CONDITION_LIMITS.groups);

// ---------------------------------------------------------------------------------------------
// Save-time checks of the right-hand value

const isDateLike = (v: unknown): v is string => typeof v === 'string' && Number.isFinite(Date.parse(v));

function rightValueProblem(type: ConditionDataType, op: ConditionOperator, value: unknown): string | null {
  if (op === 'exists' || op === 'not_exists') return null;
  if (value === undefined) return `operator ${op} needs right.value`;
  const one = (v: unknown): boolean =>
    type === 'string' ? typeof v === 'string' : type === 'number' ? typeof v === 'number' : type === 'boolean' ? typeof v === 'boolean' : type === 'date' ? isDateLike(v) : v !== null && typeof v !== 'object';
  const typeName = type === 'date' ? 'an ISO 8601 date' : type === 'array' ? 'a string, number or boolean' : `a ${type}`;
  if (op === 'in' || op === 'not_in' || (type === 'array' && (op === '==' || op === '!='))) {
    if (!Array.isArray(value)) return `operator ${op} needs right.value to be an array`;
    const itemType = type === 'array' ? 'array' : type;
    if (!value.every((v) => (itemType === 'array' ? v !== null : one(v)))) return `every item of right.value must be ${typeName}`;
    return null;
  }
  if (Array.isArray(value)) return `operator ${op} needs right.value to be ${typeName}, not an array`;
  if (!one(value)) return `right.value must be ${typeName} for dataType ${type}`;
  if (op === 'matches') return regexProblem(value as string);
  return null;
}

/**
 * Why a `matches` pattern is refused: too long, not a regular expression, or of a shape that can
 * backtrack catastrophically (a quantified group holding a quantifier or an alternation, as in
 * `(a+)+` or `(a|aa)*`, or a backreference).
 */
export function regexProblem(pattern: string): string | null {
  if (pattern.length > CONDITION_LIMITS.regexChars) return `a regular expression has at most ${CONDITION_LIMITS.regexChars} characters`;
  try {
    new RegExp(pattern, 'i');
  } catch (error) {
    return `not a valid regular expression: ${(error as Error).message}`;
  }
  if (/\\[1-9]|\\k</.test(pattern)) return 'backreferences are not allowed in a regular expression';
  // A stack of open groups: whether each holds a quantifier or an alternation.
  const stack: { risky: boolean }[] = [];
  let lastGroupRisky = false;
  let inClass = false;
  for (let i = 0; i < pattern.length; i += 1) {
    const c = pattern[i]!;
    if (c === '\\') {
      i += 1;
      lastGroupRisky = false;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') {
      inClass = true;
      lastGroupRisky = false;
      continue;
    }
    if (c === '(') {
      stack.push({ risky: false });
      continue;
    }
    if (c === ')') {
      const group = stack.pop();
      lastGroupRisky = group?.risky ?? false;
      if (group?.risky && stack.length) stack[stack.length - 1]!.risky = true;
      continue;
    }
    const quantifier = c === '*' || c === '+' || (c === '{' && /^\{\d+,\d*\}/.test(pattern.slice(i)));
    if (quantifier || c === '|') {
      if (quantifier && lastGroupRisky) {
        return 'the regular expression can backtrack catastrophically (a repeated group holds a repetition or an alternation); simplify it';
      }
      if (stack.length) stack[stack.length - 1]!.risky = true;
    }
    lastGroupRisky = false;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Evaluation

/** Why a predicate is false without a comparison: the path does not resolve, or its value has the wrong type. */
export type PredicateMiss = 'missing' | 'type_mismatch';

export interface PredicateResult {
  path: string;
  dataType: ConditionDataType;
  operator: ConditionOperator;
  right: unknown;
  /** The resolved left value (null when the path does not resolve). */
  left: unknown;
  found: boolean;
  holds: boolean;
  reason?: PredicateMiss;
}

export interface GroupResult {
  scope: ConditionScope;
  holds: boolean;
  predicates: PredicateResult[];
}

export interface ConditionsResult {
  holds: boolean;
  groups: GroupResult[];
}

const regexCache = new Map<string, RegExp | null>();
const timeCache = new Map<string, number | null>();
const CACHE_LIMIT = 2_000;

function cached<V>(cache: Map<string, V>, key: string, make: () => V): V {
  const hit = cache.get(key);
  if (hit !== undefined || cache.has(key)) return hit as V;
  if (cache.size >= CACHE_LIMIT) cache.clear();
  const value = make();
  cache.set(key, value);
  return value;
}

function regexFor(pattern: string): RegExp | null {
  return cached(regexCache, pattern, () => (regexProblem(pattern) ? null : new RegExp(pattern, 'i')));
}

/** Lower case, remembering the last few: a message's content is compared by many predicates in a row. */
const lowered: [string, string][] = [];
function lower(v: string): string {
  for (const [input, output] of lowered) if (input === v) return output;
  const out = v.toLowerCase();
  if (lowered.length >= 8) lowered.shift();
  lowered.push([v, out]);
  return out;
}

function toTime(v: unknown): number | null {
  if (typeof v === 'string') {
    return cached(timeCache, v, () => {
      const t = Date.parse(v);
      return Number.isFinite(t) ? t : null;
    });
  }
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  return null;
}

/** Loose equality of two scalars: strings case-insensitively, others strictly. */
function same(a: unknown, b: unknown): boolean {
  if (typeof a === 'string' && typeof b === 'string') return lower(a) === lower(b);
  return a === b;
}

function order(op: ConditionOperator, cmp: number): boolean {
  switch (op) {
    case '<':
      return cmp < 0;
    case '<=':
      return cmp <= 0;
    case '>':
      return cmp > 0;
    case '>=':
      return cmp >= 0;
    default:
      return false;
  }
}

/** One comparison of a scalar left value; undefined when the value does not have the data type. */
function compareScalar(type: Exclude<ConditionDataType, 'array'>, op: ConditionOperator, left: unknown, right: unknown): boolean | undefined {
  switch (type) {
    case 'string': {
      if (typeof left !== 'string') return undefined;
      const l = lower(left);
      switch (op) {
        case '==':
          return typeof right === 'string' && l === lower(right);
        case '!=':
          return !(typeof right === 'string' && l === lower(right));
        case '<':
        case '<=':
        case '>':
        case '>=':
          return typeof right === 'string' && order(op, l < lower(right) ? -1 : l > lower(right) ? 1 : 0);
        case 'contains':
          return typeof right === 'string' && l.includes(lower(right));
        case 'not_contains':
          return typeof right === 'string' && !l.includes(lower(right));
        case 'starts_with':
          return typeof right === 'string' && l.startsWith(lower(right));
        case 'ends_with':
          return typeof right === 'string' && l.endsWith(lower(right));
        case 'in':
          return Array.isArray(right) && right.some((r) => same(left, r));
        case 'not_in':
          return Array.isArray(right) && !right.some((r) => same(left, r));
        case 'matches': {
          const re = typeof right === 'string' ? regexFor(right) : null;
          return re !== null && re.test(left.slice(0, CONDITION_LIMITS.matchInputChars));
        }
        default:
          return false;
      }
    }
    case 'number': {
      if (typeof left !== 'number' || !Number.isFinite(left)) return undefined;
      if (op === 'in') return Array.isArray(right) && right.includes(left);
      if (op === 'not_in') return Array.isArray(right) && !right.includes(left);
      if (typeof right !== 'number') return false;
      if (op === '==') return left === right;
      if (op === '!=') return left !== right;
      return order(op, left - right);
    }
    case 'boolean': {
      if (typeof left !== 'boolean') return undefined;
      if (op === 'in') return Array.isArray(right) && right.includes(left);
      if (op === 'not_in') return Array.isArray(right) && !right.includes(left);
      if (op === '==') return left === right;
      if (op === '!=') return left !== right;
      return false;
    }
    case 'date': {
      const l = toTime(left);
      if (l === null) return undefined;
      const r = toTime(right);
      if (r === null) return false;
      if (op === '==') return l === r;
      if (op === '!=') return l !== r;
      return order(op, l - r);
    }
  }
}

function compareArray(op: ConditionOperator, left: unknown, right: unknown): boolean | undefined {
  if (!Array.isArray(left)) return undefined;
  switch (op) {
    case 'contains':
      return left.some((item) => same(item, right));
    case 'not_contains':
      return !left.some((item) => same(item, right));
    case '==':
    case '!=': {
      const equal = Array.isArray(right) && right.length === left.length && left.every((item, i) => same(item, right[i]));
      return op === '==' ? equal : !equal;
    }
    case 'in':
      return Array.isArray(right) && left.length > 0 && left.every((item) => right.some((r) => same(item, r)));
    case 'not_in':
      return Array.isArray(right) && !left.some((item) => right.some((r) => same(item, r)));
    default:
      return false;
  }
}

/** Whether a predicate holds for a resolved value; undefined for a type mismatch. */
function compare(scope: ConditionScope, p: Predicate, value: unknown): boolean | undefined {
  const right = p.right?.value;
  if (scope === 'SCALAR') {
    return p.left.dataType === 'array' ? compareArray(p.operator, value, right) : compareScalar(p.left.dataType, p.operator, value, right);
  }
  if (!Array.isArray(value) || p.left.dataType === 'array') return undefined;
  if (value.length === 0) return false;
  const type = p.left.dataType;
  for (const item of value) {
    const holds = compareScalar(type, p.operator, item, right) === true;
    if (scope === 'ANY' && holds) return true;
    if (scope === 'ALL' && !holds) return false;
  }
  return scope === 'ALL';
}

function resolved(p: Predicate, context: unknown): unknown {
  const segments = cachedPath(p.left.path);
  return segments ? resolvePath(context, segments) : MISSING;
}

/** Whether one predicate holds, without a trace. Never throws. */
export function predicateHolds(scope: ConditionScope, p: Predicate, context: unknown): boolean {
  const value = resolved(p, context);
  if (p.operator === 'exists') return value !== MISSING && value !== null;
  if (p.operator === 'not_exists') return value === MISSING || value === null;
  if (value === MISSING || value === null) return false;
  return compare(scope, p, value) === true;
}

/** Evaluates one predicate under a scope, with its trace. Never throws. */
export function evaluatePredicate(scope: ConditionScope, p: Predicate, context: unknown): PredicateResult {
  const value = resolved(p, context);
  const found = value !== MISSING;
  const right = p.right?.value;
  const result = (holds: boolean, reason?: PredicateMiss): PredicateResult => {
    const out: PredicateResult = { path: p.left.path, dataType: p.left.dataType, operator: p.operator, right: right ?? null, left: found ? value : null, found, holds };
    if (reason) out.reason = reason;
    return out;
  };
  if (p.operator === 'exists') return result(found && value !== null);
  if (p.operator === 'not_exists') return result(!found || value === null);
  if (!found || value === null) return result(false, 'missing');
  const holds = compare(scope, p, value);
  return holds === undefined ? result(false, 'type_mismatch') : result(holds);
}

/** Evaluates condition groups with a trace of every group and predicate. Never throws. */
export function evaluateConditions(groups: readonly ConditionGroup[], context: unknown): ConditionsResult {
  const results: GroupResult[] = [];
  let any = false;
  for (const group of groups) {
    const predicates: PredicateResult[] = [];
    let holds = group.predicate.length > 0;
    for (const p of group.predicate) {
      const r = evaluatePredicate(group.scope, p, context);
      predicates.push(r);
      holds &&= r.holds;
    }
    any ||= holds;
    results.push({ scope: group.scope, holds, predicates });
  }
  return { holds: any, groups: results };
}

/** Whether condition groups hold, without a trace (the answer pipeline's fast path). */
export function conditionsHold(groups: readonly ConditionGroup[], context: unknown): boolean {
  for (const group of groups) {
    if (group.predicate.length === 0) continue;
    let all = true;
    for (const p of group.predicate) {
      if (!predicateHolds(group.scope, p, context)) {
        all = false;
        break;
      }
    }
    if (all) return true;
  }
  return false;
}
