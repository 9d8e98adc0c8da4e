// The fields of a guardrail (create and edit): name, kind with its own settings, stage and action
// as the kind allows, the agents it applies to, enabled. The API's messages land on their fields.
import { Alert, Checkbox, Fieldset, Group, MultiSelect, NativeSelect, NumberInput, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { errorOf, fieldErrors, unplaced } from '../../../components/field-errors';
import { WriteButton } from '../../../components/write-button';
import { useAgents } from '../../agents/api';
import { ACTION_LABELS, type Guardrail, type GuardrailBody, type Kind, KINDS, PII_LABELS, STAGE_LABELS } from '../api';

interface State {
  name: string;
  kind: Kind;
  stage: GuardrailBody['stage'];
  action: GuardrailBody['action'];
  isEnabled: boolean;
  botIds: string[];
  topics: string;
  phrases: string;
  caseSensitive: boolean;
  types: string[];
  maxCharacters: number | string;
}

const lines = (text: string) => text.split('\n').map((l) => l.trim()).filter(Boolean);
const list = (value: unknown) => (Array.isArray(value) ? value.map(String) : []);

function initialState(g?: Guardrail): State {
  // One kind's config (the document's GuardrailConfig): read field by field, whatever the kind.
  const config: Record<string, unknown> = g?.config ?? {};
  return {
    name: g?.name ?? '',
    kind: g?.kind ?? 'blocked_topics',
    stage: g?.stage ?? 'input',
    action: g?.action ?? 'block',
    isEnabled: g?.isEnabled ?? true,
    botIds: g?.botIds ?? [],
    topics: list(config.topics).join('\n'),
    phrases: list(config.phrases).join('\n'),
    caseSensitive: config.caseSensitive === true,
    types: list(config.types),
    maxCharacters: typeof config.maxCharacters === 'number' ? config.maxCharacters : 1000,
  };
}

/** Only the settings of the chosen kind are sent (the API refuses others). */
function toBody(s: State): GuardrailBody {
  const config: Record<string, unknown> =
    s.kind === 'blocked_topics'
      ? { topics: lines(s.topics) }
      : s.kind === 'blocked_phrases'
        ? { phrases: lines(s.phrases), caseSensitive: s.caseSensitive }
        : s.kind === 'pii_redaction'
          ? { types: s.types }
          : s.kind === 'answer_length'
            ? { maxCharacters: s.maxCharacters === '' ? null : Number(s.maxCharacters) }
            : {};
  // Sent as typed (an empty length is null): the API checks the config against the kind and names what is wrong.
  return { name: s.name, kind: s.kind, stage: s.stage, action: s.action, isEnabled: s.isEnabled, botIds: s.botIds, config: config as GuardrailBody['config'] };
}

const FIELDS = ['name', 'kind', 'stage', 'action', 'isEnabled', 'botIds', 'config'];

interface Props {
  guardrail?: Guardrail;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onSubmit: (body: GuardrailBody) => void;
}

export function GuardrailForm({ guardrail, submitLabel, pending, error, onSubmit }: Props) {
  const [s, setS] = useState(() => initialState(guardrail));
  const agents = useAgents();
  const errors = fieldErrors(error);
  const above = unplaced(errors, (path) => FIELDS.includes(path.split('.')[0]!));
  const kind = KINDS.find((k) => k.kind === s.kind)!;
  const setKind = (next: Kind) => {
    const rules = KINDS.find((k) => k.kind === next)!;
    // A stage or action the new kind does not take becomes its first.
    setS({ ...s, kind: next, stage: rules.stages.includes(s.stage) ? s.stage : rules.stages[0]!, action: rules.actions.includes(s.action) ? s.action : rules.actions[0]! });
  };
  return (
    <Stack gap="sm">
      <TextInput label="Name" value={s.name} error={errorOf(errors, 'name')} onChange={(e) => setS({ ...s, name: e.currentTarget.value })} />
      <NativeSelect
        label="Kind"
        description={kind.what}
        data={KINDS.map((k) => ({ value: k.kind, label: k.label }))}
        value={s.kind}
        error={errorOf(errors, 'kind')}
        onChange={(e) => setKind(e.currentTarget.value as Kind)}
      />
      <Fieldset legend={`Settings of ${kind.label}`}>
        {s.kind === 'blocked_topics' && (
          <Textarea label="Topics" description={'One per line; commas separate alternatives ("politics, elections, voting")'} autosize minRows={2} value={s.topics} error={errorOf(errors, 'config.topics') ?? errorOf(errors, 'config')} onChange={(e) => setS({ ...s, topics: e.currentTarget.value })} />
        )}
        {s.kind === 'blocked_phrases' && (
          <Stack gap="xs">
            <Textarea label="Phrases" description="One per line; each matches as whole words" autosize minRows={2} value={s.phrases} error={errorOf(errors, 'config.phrases') ?? errorOf(errors, 'config')} onChange={(e) => setS({ ...s, phrases: e.currentTarget.value })} />
            <Checkbox label="Case-sensitive" checked={s.caseSensitive} error={errorOf(errors, 'config.caseSensitive')} onChange={(e) => setS({ ...s, caseSensitive: e.currentTarget.checked })} />
          </Stack>
        )}
        {s.kind === 'pii_redaction' && (
          <Checkbox.Group label="Personal data to find" value={s.types} error={errorOf(errors, 'config.types') ?? errorOf(errors, 'config')} onChange={(types) => setS({ ...s, types })}>
            <Group mt="xs">
              {Object.entries(PII_LABELS).map(([value, label]) => (
                <Checkbox key={value} value={value} label={label} />
              ))}
            </Group>
          </Checkbox.Group>
        )}
        {s.kind === 'answer_length' && (
          <NumberInput label="Most characters in an answer" clampBehavior="none" allowDecimal={false} value={s.maxCharacters} error={errorOf(errors, 'config.maxCharacters') ?? errorOf(errors, 'config')} onChange={(maxCharacters) => setS({ ...s, maxCharacters })} />
        )}
        {s.kind === 'required_citation' && <Text size="sm">No settings: it matches an answer that cites no article.</Text>}
      </Fieldset>
      <Group align="flex-start" grow>
        <NativeSelect
          label="Checks"
          data={kind.stages.map((stage) => ({ value: stage, label: STAGE_LABELS[stage] }))}
          value={s.stage}
          error={errorOf(errors, 'stage')}
          onChange={(e) => setS({ ...s, stage: e.currentTarget.value as State['stage'] })}
        />
        <NativeSelect
          label="When it matches"
          data={kind.actions.map((action) => ({ value: action, label: ACTION_LABELS[action] }))}
          value={s.action}
          error={errorOf(errors, 'action')}
          onChange={(e) => setS({ ...s, action: e.currentTarget.value as State['action'] })}
        />
      </Group>
      <MultiSelect
        label="Agents"
        description="The agents it applies to; none: it applies to no agent (the test route still runs it)"
        searchable
        data={(agents.data ?? []).map((a) => ({ value: a.id, label: a.name }))}
        value={s.botIds}
        error={errorOf(errors, 'botIds') ?? (agents.error ? `The agents could not be loaded: ${agents.error.message}` : undefined)}
        onChange={(botIds) => setS({ ...s, botIds })}
      />
      <Checkbox label="Enabled" checked={s.isEnabled} error={errorOf(errors, 'isEnabled')} onChange={(e) => setS({ ...s, isEnabled: e.currentTarget.checked })} />
      {above.length > 0 && (
        <Alert color="red" title="Not saved" role="alert">
          {above.join('; ')}
        </Alert>
      )}
      <WriteButton w="fit-content" loading={pending} onClick={() => onSubmit(toBody(s))}>
        {submitLabel}
      </WriteButton>
    </Stack>
  );
}
