// The condition language (docs/rules.md#condition-language) in words: "Channel is email AND
// customer's plan is one of enterprise, pro". Shared by every page that shows conditions: reply
// rules' slots and the condition nodes of a rule's flow (the same language, plus `rule.<field>`).

export const SCOPES = ['SCALAR', 'ANY', 'ALL'] as const;
export const DATA_TYPES = ['string', 'number', 'boolean', 'date', 'array'] as const;
export type Scope = (typeof SCOPES)[number];
export type DataType = (typeof DATA_TYPES)[number];

/** The operators each data type takes (the API's OPERATORS_BY_TYPE; it refuses any other with a 400). */
export const OPERATORS_BY_TYPE: Record<DataType, readonly string[]> = {
  string: ['==', '!=', '<', '<=', '>', '>=', 'contains', 'not_contains', 'starts_with', 'ends_with', 'in', 'not_in', 'matches', 'exists', 'not_exists'],
  number: ['==', '!=', '<', '<=', '>', '>=', 'in', 'not_in', 'exists', 'not_exists'],
  boolean: ['==', '!=', 'in', 'not_in', 'exists', 'not_exists'],
  date: ['==', '!=', '<', '<=', '>', '>=', 'exists', 'not_exists'],
  array: ['contains', 'not_contains', '==', '!=', 'in', 'not_in', 'exists', 'not_exists'],
};

/** Operators that take no value, and those that take a list. */
export const NO_VALUE = new Set(['exists', 'not_exists']);
export const listOperator = (dataType: string, operator: string) => operator === 'in' || operator === 'not_in' || (dataType === 'array' && (operator === '==' || operator === '!='));

const WORDS: Record<string, string> = {
  '==': 'is',
  '!=': 'is not',
  '<': 'is less than',
  '<=': 'is at most',
  '>': 'is more than',
  '>=': 'is at least',
  contains: 'contains',
  not_contains: 'does not contain',
  starts_with: 'starts with',
  ends_with: 'ends with',
  in: 'is one of',
  not_in: 'is none of',
  matches: 'matches the pattern',
  exists: 'is set',
  not_exists: 'is not set',
};
const DATE_WORDS: Record<string, string> = { '<': 'is before', '<=': 'is on or before', '>': 'is after', '>=': 'is on or after' };

export function operatorWords(operator: string, dataType = 'string'): string {
  return (dataType === 'date' ? DATE_WORDS[operator] : undefined) ?? WORDS[operator] ?? operator;
}

const FIXED: Record<string, string> = {
  'message.content': 'message',
  'message.language': 'language',
  'conversation.id': 'conversation id',
  'conversation.turn': 'turn',
  'conversation.channel': 'channel',
  'conversation.source': 'source',
  'conversation.status': 'status',
  'time.hour': 'hour',
  'time.weekday': 'weekday (0 is Sunday)',
  'time.date': 'date',
};

/**
 * A context path as a person names it: `userAttributes.plan` → "customer's plan"; a rule flow's
 * collected answer `rule.orderAgeDays` → "the collected orderAgeDays" (the field name as its
 * collect step shows it, so the two are found together).
 */
export function pathWords(path: string): string {
  if (FIXED[path]) return FIXED[path];
  const [namespace, ...rest] = path.split('.');
  const below = rest.join('.');
  if (namespace === 'userAttributes') return `customer's ${below}`;
  if (namespace === 'attributes') return `attribute ${below}`;
  if (namespace === 'tags') return `tags of ${below}`;
  if (namespace === 'rule') return `the collected ${below}`;
  return path;
}

export function valueWords(value: unknown): string {
  if (Array.isArray(value)) return value.map(valueWords).join(', ');
  if (value === null || value === undefined) return 'nothing';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export interface Predicate {
  left: { path: string; dataType: string };
  operator: string;
  right?: { value?: unknown };
}

export interface ConditionGroup {
  scope: string;
  predicate: Predicate[];
}

/** One predicate: "channel is email"; under ANY / ALL, "any item of tags of Topic is Billing". */
export function predicateWords(p: Predicate, scope = 'SCALAR'): string {
  const subject = scope === 'ANY' ? `any item of ${pathWords(p.left.path)}` : scope === 'ALL' ? `every item of ${pathWords(p.left.path)}` : pathWords(p.left.path);
  const words = `${subject} ${operatorWords(p.operator, p.left.dataType)}`;
  return NO_VALUE.has(p.operator) ? words : `${words} ${valueWords(p.right?.value)}`;
}

/** A group's predicates joined by AND. An empty group never holds. */
function groupPhrase(group: ConditionGroup): string {
  if (group.predicate.length === 0) return 'never (an empty group holds for no message)';
  return group.predicate.map((p) => predicateWords(p, group.scope)).join(' AND ');
}

/** A group: its predicates joined by AND, the first letter capitalised. */
export function groupWords(group: ConditionGroup): string {
  const words = groupPhrase(group);
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * All the groups in one line (a flow's condition node: "If …"): any group holds, so they are
 * joined by OR, a group of several predicates in parentheses when there are several groups.
 */
export function conditionsWords(groups: ConditionGroup[] = []): string {
  if (groups.length === 0) return 'never (no condition group)';
  if (groups.length === 1) return groupPhrase(groups[0]!);
  return groups.map((g) => (g.predicate.length > 1 ? `(${groupPhrase(g)})` : groupPhrase(g))).join(' OR ');
}
