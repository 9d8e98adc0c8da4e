// A condition node's groups as rows: any group holds when all its predicates hold. Each predicate
// is a path, a data type, an operator and a value typed as text (read per data type on save); the
// API's messages naming a predicate (`conditions.0.predicate.1.operator`) are shown on its row.
import { Button, Fieldset, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { type ConditionGroup, type NodeError, OPERATORS, type Predicate } from '../flow';

export interface EditPredicate {
  path: string;
  dataType: string;
  operator: string;
  value: string;
}
export interface EditGroup {
  scope: string;
  predicate: EditPredicate[];
}

const DATA_TYPES = ['string', 'number', 'boolean', 'date', 'array'];
const SCOPES = [
  { value: 'SCALAR', label: 'the value' },
  { value: 'ANY', label: 'any item' },
  { value: 'ALL', label: 'every item' },
];
const UNARY = new Set(['exists', 'not_exists']);

export function toEditGroups(groups: ConditionGroup[] = []): EditGroup[] {
  return groups.map((g) => ({
    scope: g.scope,
    predicate: g.predicate.map((p) => {
      const value = p.right?.value;
      return { path: p.left.path, dataType: p.left.dataType, operator: p.operator, value: Array.isArray(value) ? value.join(', ') : value === undefined ? '' : String(value) };
    }),
  }));
}

function readValue(text: string, dataType: string): unknown {
  const trimmed = text.trim();
  if (dataType === 'number' && trimmed !== '' && !Number.isNaN(Number(trimmed))) return Number(trimmed);
  if (dataType === 'boolean' && (trimmed === 'true' || trimmed === 'false')) return trimmed === 'true';
  return trimmed;
}

/** The groups as the API takes them; a value the type does not read is sent as typed, for the API to name. */
export function fromEditGroups(groups: EditGroup[]): ConditionGroup[] {
  return groups.map((g) => ({
    scope: g.scope,
    predicate: g.predicate.map((p): Predicate => {
      const left = { path: p.path.trim(), dataType: p.dataType };
      if (UNARY.has(p.operator)) return { left, operator: p.operator };
      const value = p.operator === 'in' || p.operator === 'not_in' ? p.value.split(',').map((v) => readValue(v, p.dataType)) : readValue(p.value, p.dataType);
      return { left, operator: p.operator, right: { value } };
    }),
  }));
}

const blank = (): EditPredicate => ({ path: '', dataType: 'string', operator: '==', value: '' });

export function ConditionEditor({ groups, onChange, errors }: { groups: EditGroup[]; onChange(groups: EditGroup[]): void; errors: NodeError[] }) {
  const setGroup = (index: number, group: EditGroup | null) =>
    onChange(group ? groups.map((g, i) => (i === index ? group : g)) : groups.filter((_, i) => i !== index));
  const messagesFor = (prefix: string) => errors.filter((e) => e.field === prefix || e.field.startsWith(`${prefix}.`)).map((e) => `${e.field}: ${e.message}`);
  return (
    <Stack gap="xs">
      {messagesFor('conditions')
        .filter((m) => !/^conditions\.\d/.test(m))
        .map((m) => (
          <Text key={m} size="sm" c="red.8">
            {m}
          </Text>
        ))}
      {groups.map((group, g) => (
        <Fieldset key={g} legend={`Group ${g + 1}: all of these hold${g > 0 ? ' (or an earlier group holds)' : ''}`} p="xs">
          <Select
            label={`Group ${g + 1} compares`}
            data={SCOPES}
            value={group.scope}
            allowDeselect={false}
            onChange={(scope) => setGroup(g, { ...group, scope: scope ?? 'SCALAR' })}
            w={200}
          />
          {group.predicate.map((p, i) => {
            const setP = (change: Partial<EditPredicate>) => setGroup(g, { ...group, predicate: group.predicate.map((q, j) => (j === i ? { ...q, ...change } : q)) });
            const label = `group ${g + 1}, predicate ${i + 1}`;
            const rowErrors = messagesFor(`conditions.${g}.predicate.${i}`);
            return (
              <div key={i}>
                <Group align="end" gap="xs" mt="xs">
                  <TextInput label={`Path (${label})`} value={p.path} onChange={(e) => setP({ path: e.currentTarget.value })} w={200} />
                  <Select label={`Data type (${label})`} data={DATA_TYPES} value={p.dataType} allowDeselect={false} onChange={(v) => setP({ dataType: v ?? 'string' })} w={130} />
                  <Select label={`Operator (${label})`} data={OPERATORS} value={p.operator} allowDeselect={false} onChange={(v) => setP({ operator: v ?? '==' })} w={140} />
                  {!UNARY.has(p.operator) && <TextInput label={`Value (${label})`} value={p.value} onChange={(e) => setP({ value: e.currentTarget.value })} w={160} />}
                  <Button size="xs" variant="default" onClick={() => setGroup(g, group.predicate.length > 1 ? { ...group, predicate: group.predicate.filter((_, j) => j !== i) } : null)}>
                    Remove predicate
                  </Button>
                </Group>
                {rowErrors.map((m) => (
                  <Text key={m} size="sm" c="red.8" role="alert">
                    {m}
                  </Text>
                ))}
              </div>
            );
          })}
          <Button size="xs" variant="default" mt="xs" onClick={() => setGroup(g, { ...group, predicate: [...group.predicate, blank()] })}>
            Add a predicate to group {g + 1}
          </Button>
        </Fieldset>
      ))}
      <Button size="xs" variant="default" onClick={() => onChange([...groups, { scope: 'SCALAR', predicate: [blank()] }])}>
        Add a group (or)
      </Button>
    </Stack>
  );
}
