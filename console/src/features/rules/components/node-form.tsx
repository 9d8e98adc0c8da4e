// One node of the flow as a form, with the fields of its type. Saving sends the whole flow through
// the rule update route (rule-flow.tsx); the API's messages naming a field of this node are shown
// on that field (a condition's on its predicate's part, through the shared condition editor), the
// others below the form.
import { Button, Checkbox, Group, MultiSelect, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { ConditionEditor, placedByEditor } from '../../../components/condition-editor';
import { fromRows, toRows } from '../../../components/condition-form';
import { errorOf, type FieldErrors, unplaced } from '../../../components/field-errors';
import { WriteButton } from '../../../components/write-button';
import { useActions, useTags } from '../api';
import type { FlowNode, NodeType } from '../flow';

const DATA_TYPES = ['string', 'number', 'boolean', 'date', 'email', 'identifier', 'days'];
/** The fields each type's form shows (besides the node id); an error on any other goes below the form. */
const SHOWN: Record<NodeType, string[]> = {
  message: ['message'],
  collect: ['question', 'field', 'dataType'],
  condition: [],
  tool: ['toolId', 'inputs'],
  tag: ['tagIds'],
  escalate: ['reason', 'message'],
  end: ['message'],
};
const RULE_PATH_HELP = 'rule.<field> (an answer collected earlier), userAttributes.<name>, message.content, conversation.channel…';
const REASONS = ['rule_escalation', 'customer_request', 'missing_knowledge', 'guardrail_block', 'tool_failure', 'low_confidence', 'negative_sentiment', 'other'];

function TagPicker({ value, onChange, error }: { value: string[]; onChange(value: string[]): void; error?: string }) {
  const tags = useTags();
  const data = (tags.data ?? []).map((t) => ({ value: t.id, label: t.tagName }));
  for (const id of value) if (!data.some((d) => d.value === id)) data.push({ value: id, label: id });
  return (
    <MultiSelect
      label="Tags"
      description={tags.error ? `The tags could not be loaded: ${tags.error.message}` : 'workspace or system tags'}
      data={data}
      value={value}
      onChange={onChange}
      searchable
      error={error}
    />
  );
}

function ToolPicker({ value, onChange, error }: { value: string; onChange(value: string): void; error?: string }) {
  const actions = useActions();
  const data = (actions.data ?? []).map((a) => ({ value: a.id, label: a.name }));
  if (value && !data.some((d) => d.value === value)) data.push({ value, label: value });
  return (
    <Select
      label="Action"
      description={actions.error ? `The actions could not be loaded: ${actions.error.message}` : 'an action of the workspace'}
      data={data}
      value={value || null}
      onChange={(v) => onChange(v ?? '')}
      searchable
      error={error}
    />
  );
}

const inputsText = (inputs: FlowNode['inputs'] = {}) => Object.entries(inputs).map(([k, v]) => `${k} = ${String(v)}`).join('\n');
function readInputs(text: string): Record<string, string> {
  return Object.fromEntries(
    text
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => {
        const at = line.indexOf('=');
        return at < 0 ? [line.trim(), ''] : [line.slice(0, at).trim(), line.slice(at + 1).trim()];
      }),
  );
}

export function NodeForm({ node, errors, saving, onSave, onCancel }: { node: FlowNode; errors: FieldErrors; saving: boolean; onSave(fields: FlowNode): void; onCancel(): void }) {
  const [fields, setFields] = useState<FlowNode>(node);
  const [groups, setGroups] = useState(() => toRows(node.conditions ?? []));
  const [inputs, setInputs] = useState(() => inputsText(node.inputs));
  const [tags, setTags] = useState(node.tagIds ?? []);
  const set = (change: Partial<FlowNode>) => setFields({ ...fields, ...change });
  const error = (field: string) => errorOf(errors, field);
  const shown = ['id', ...(SHOWN[node.type] ?? [])];
  const below = unplaced(errors, (path) => (node.type === 'condition' && placedByEditor('conditions', path)) || shown.some((f) => path === f || path.startsWith(`${f}.`)));
  const save = () => {
    const out: FlowNode = { ...fields };
    if (node.type === 'condition') out.conditions = fromRows(groups);
    if (node.type === 'tool') out.inputs = readInputs(inputs);
    if (node.type === 'tag') out.tagIds = tags;
    if ((node.type === 'escalate' || node.type === 'end') && !out.message?.trim()) delete out.message;
    onSave(out);
  };
  const message = (label: string, optional: boolean) => (
    <Textarea label={label} required={!optional} autosize minRows={2} value={fields.message ?? ''} onChange={(e) => set({ message: e.currentTarget.value })} error={error('message')} />
  );
  return (
    <form
      aria-label={`Edit ${node.id ?? 'node'}`}
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      <Stack gap="xs" mt="sm">
        <TextInput label="Node id" value={fields.id ?? ''} onChange={(e) => set({ id: e.currentTarget.value })} error={error('id')} w={240} />
        {node.type === 'message' && message('Message', false)}
        {node.type === 'collect' && (
          <>
            <TextInput label="Question" value={fields.question ?? ''} onChange={(e) => set({ question: e.currentTarget.value })} error={error('question')} />
            <Group align="end">
              <TextInput label="Field" description="kept as rule.<field>" value={fields.field ?? ''} onChange={(e) => set({ field: e.currentTarget.value })} error={error('field')} />
              <Select label="Data type" data={DATA_TYPES} value={fields.dataType ?? 'string'} allowDeselect={false} onChange={(v) => set({ dataType: v ?? 'string' })} error={error('dataType')} />
              <Checkbox label="Required" checked={fields.required !== false} onChange={(e) => set({ required: e.currentTarget.checked })} />
            </Group>
          </>
        )}
        {node.type === 'condition' && (
          <ConditionEditor groups={groups} onChange={setGroups} errors={errors} prefix="conditions" empty="No condition group: a condition step needs at least one. Add a group." pathHelp={RULE_PATH_HELP} />
        )}
        {node.type === 'tool' && (
          <>
            <ToolPicker value={fields.toolId ?? ''} onChange={(toolId) => set({ toolId })} error={error('toolId')} />
            <Textarea label="Inputs" description="one per line: name = ${path} or a value" autosize minRows={2} value={inputs} onChange={(e) => setInputs(e.currentTarget.value)} error={error('inputs')} />
          </>
        )}
        {node.type === 'tag' && <TagPicker value={tags} onChange={setTags} error={error('tagIds')} />}
        {node.type === 'escalate' && (
          <>
            <Select label="Reason" data={REASONS} value={fields.reason ?? 'rule_escalation'} allowDeselect={false} onChange={(v) => set({ reason: v ?? 'rule_escalation' })} error={error('reason')} w={240} />
            {message('Message to the customer (optional)', true)}
          </>
        )}
        {node.type === 'end' && message('Message to the customer (optional)', true)}
        {below.map((message) => (
          <Text key={message} size="sm" c="red.9">
            {message}
          </Text>
        ))}
        <Group>
          <WriteButton type="submit" loading={saving}>
            Save node
          </WriteButton>
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
