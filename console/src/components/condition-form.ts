// Condition groups as a form edits them (every value a text) and back to the API's JSON.
import { type ConditionGroup, listOperator, NO_VALUE, OPERATORS_BY_TYPE, type DataType } from './condition-words';

export interface PredicateRow {
  path: string;
  dataType: string;
  operator: string;
  /** The value as typed; a list is comma-separated. */
  value: string;
}

export interface GroupRow {
  scope: string;
  predicate: PredicateRow[];
}

export const newPredicate = (): PredicateRow => ({ path: 'message.content', dataType: 'string', operator: 'contains', value: '' });
export const newGroup = (): GroupRow => ({ scope: 'SCALAR', predicate: [newPredicate()] });

const text = (value: unknown) => (value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value));

export function toRows(groups: unknown[]): GroupRow[] {
  return (groups as ConditionGroup[]).map((g) => ({
    scope: g.scope,
    predicate: g.predicate.map((p) => ({
      path: p.left.path,
      dataType: p.left.dataType,
      operator: p.operator,
      value: Array.isArray(p.right?.value) ? p.right.value.map(text).join(', ') : text(p.right?.value),
    })),
  }));
}

/**
 * One typed value in the predicate's data type. What does not convert is sent as typed, so the
 * API's message ("right.value must be a number for dataType number") lands on the field.
 */
function typed(raw: string, dataType: string): unknown {
  const value = raw.trim();
  if (dataType === 'number' && value !== '' && Number.isFinite(Number(value))) return Number(value);
  if (dataType === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  return dataType === 'string' || dataType === 'date' ? raw : value;
}

export function fromRows(rows: GroupRow[]): ConditionGroup[] {
  return rows.map((g) => ({
    scope: g.scope,
    predicate: g.predicate.map((p) => {
      const left = { path: p.path.trim(), dataType: p.dataType };
      if (NO_VALUE.has(p.operator)) return { left, operator: p.operator };
      const value = listOperator(p.dataType, p.operator)
        ? p.value.split(',').map((item) => item.trim()).filter(Boolean).map((item) => typed(item, p.dataType === 'array' ? 'string' : p.dataType))
        : typed(p.value, p.dataType);
      return { left, operator: p.operator, right: { value } };
    }),
  }));
}

/** A data type change keeps the operator when the new type takes it, else picks the type's first. */
export function withDataType(row: PredicateRow, dataType: string): PredicateRow {
  const operators = OPERATORS_BY_TYPE[dataType as DataType] ?? [];
  return { ...row, dataType, operator: operators.includes(row.operator) ? row.operator : (operators[0] ?? row.operator) };
}
