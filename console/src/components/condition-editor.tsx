// The form of condition groups (reply rules' slots, a rule flow's condition nodes): groups are
// OR'd (any holds), the conditions of a group AND'd (all hold). Each condition is field, type,
// operator (those its type takes, in words) and value; a 400 naming a condition's part
// (`conditions.1.predicate.0.operator`) is shown on that part.
import { Alert, Button, Fieldset, Group, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { type GroupRow, newGroup, newPredicate, type PredicateRow, withDataType } from './condition-form';
import { DATA_TYPES, listOperator, NO_VALUE, OPERATORS_BY_TYPE, operatorWords, type DataType } from './condition-words';
import { errorOf, type FieldErrors } from './field-errors';

const SCOPE_OPTIONS = [
  { value: 'SCALAR', label: 'Compare the value' },
  { value: 'ANY', label: 'Any item of a list' },
  { value: 'ALL', label: 'Every item of a list' },
];

const PATH_HELP = 'message.content, message.language, conversation.channel, conversation.turn, userAttributes.<name>, tags.<group>, time.hour…';

interface Props {
  groups: GroupRow[];
  onChange: (groups: GroupRow[]) => void;
  errors: FieldErrors;
  /** Where the groups are in the errors' paths ("conditions"). */
  prefix: string;
  /** What having no group means where the conditions are used. */
  empty: string;
  /** The paths the field may name (a rule's flow adds its collected `rule.<field>`). */
  pathHelp?: string;
}

function PredicateFields({ row, onChange, onRemove, error, legend, pathHelp }: { row: PredicateRow; onChange: (row: PredicateRow) => void; onRemove: () => void; error: (field: string) => string | undefined; legend: string; pathHelp: string }) {
  const operators = OPERATORS_BY_TYPE[row.dataType as DataType] ?? [row.operator];
  const list = listOperator(row.dataType, row.operator);
  return (
    <Fieldset legend={legend} variant="filled">
      <Group align="flex-start" wrap="wrap">
        <TextInput label="Field" description={pathHelp} w={280} value={row.path} error={error('left.path')} onChange={(e) => onChange({ ...row, path: e.currentTarget.value })} />
        <NativeSelect label="Type" data={[...DATA_TYPES]} value={row.dataType} error={error('left.dataType')} onChange={(e) => onChange(withDataType(row, e.currentTarget.value))} />
        <NativeSelect
          label="Operator"
          data={operators.map((op) => ({ value: op, label: operatorWords(op, row.dataType) }))}
          value={row.operator}
          error={error('operator')}
          onChange={(e) => onChange({ ...row, operator: e.currentTarget.value })}
        />
        {!NO_VALUE.has(row.operator) && (
          <TextInput
            label="Value"
            description={list ? 'Several, separated by commas' : row.dataType === 'boolean' ? 'true or false' : row.dataType === 'date' ? 'An ISO 8601 date' : undefined}
            value={row.value}
            error={error('right.value') ?? error('right')}
            onChange={(e) => onChange({ ...row, value: e.currentTarget.value })}
          />
        )}
        <Button variant="subtle" color="red" mt={24} onClick={onRemove}>
          Remove condition
        </Button>
      </Group>
    </Fieldset>
  );
}

export function ConditionEditor({ groups, onChange, errors, prefix, empty, pathHelp = PATH_HELP }: Props) {
  const setGroup = (index: number, group: GroupRow) => onChange(groups.map((g, i) => (i === index ? group : g)));
  return (
    <Stack gap="sm">
      {groups.length === 0 && <Text size="sm">{empty}</Text>}
      {groups.map((group, gi) => (
        <Stack key={gi} gap="xs">
          {gi > 0 && (
            <Text fw={700} size="sm">
              OR
            </Text>
          )}
          <Fieldset legend={`Group ${gi + 1} (all its conditions hold)`}>
            <Stack gap="xs">
              <Group align="flex-end">
                <NativeSelect label="Compare" data={SCOPE_OPTIONS} value={group.scope} error={errorOf(errors, `${prefix}.${gi}.scope`)} onChange={(e) => setGroup(gi, { ...group, scope: e.currentTarget.value })} />
                <Button variant="subtle" color="red" onClick={() => onChange(groups.filter((_, i) => i !== gi))}>
                  Remove group {gi + 1}
                </Button>
              </Group>
              {group.predicate.length === 0 && (
                <Alert color="yellow" title="Empty group">
                  An empty group never holds.
                </Alert>
              )}
              {group.predicate.map((row, pi) => (
                <PredicateFields
                  key={pi}
                  legend={`Group ${gi + 1}, condition ${pi + 1}`}
                  pathHelp={pathHelp}
                  row={row}
                  error={(field) => errorOf(errors, `${prefix}.${gi}.predicate.${pi}.${field}`)}
                  onChange={(next) => setGroup(gi, { ...group, predicate: group.predicate.map((p, i) => (i === pi ? next : p)) })}
                  onRemove={() => setGroup(gi, { ...group, predicate: group.predicate.filter((_, i) => i !== pi) })}
                />
              ))}
              <Button variant="light" size="xs" w="fit-content" onClick={() => setGroup(gi, { ...group, predicate: [...group.predicate, newPredicate()] })}>
                Add a condition to group {gi + 1} (AND)
              </Button>
            </Stack>
          </Fieldset>
        </Stack>
      ))}
      <Button variant="light" size="xs" w="fit-content" onClick={() => onChange([...groups, newGroup()])}>
        Add a group (OR)
      </Button>
    </Stack>
  );
}

/** Whether a field path of the body is one the editor shows (else it goes above the form). */
export function placedByEditor(prefix: string, path: string): boolean {
  return new RegExp(`^${prefix}\\.\\d+\\.(scope|predicate\\.\\d+\\.(left\\.path|left\\.dataType|operator|right(\\.value)?))(\\.|$)`).test(path);
}
