// A test case's form (create and edit): its name and tags, the customer's turns in order (each its
// message and, when asked, its own expectations), and the expectations of the last turn's reply;
// the API's validation messages on their fields (`body.turns.0.content`, `body.expect.contains`).
import { Button, Checkbox, Fieldset, Group, Radio, Select, Stack, TagsInput, Text, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { errorOf, type FieldErrors, fieldErrors, unplaced } from '../../../components/field-errors';
import { FormFooter } from '../../../components/form-footer';
import { type CaseBody, HANDOVER_REASONS, type HandoverReason } from '../api';
import { type Answers, caseBody, type CaseState, describeExpectation, EMPTY_EXPECTATION, type ExpectationState } from '../expectation';

const FIELDS = ['name', 'tags', 'turns', 'expect', 'liveActions'];

/** The fields of one expectation; `path` is its place in the body ("expect", "turns.0.expect"), `legend` names it. */
function ExpectationFields({ legend, path, value, errors, onChange }: { legend: string; path: string; value: ExpectationState; errors: FieldErrors; onChange(next: ExpectationState): void }) {
  const kept = describeExpectation(value.kept);
  return (
    <Fieldset legend={legend}>
      <Stack gap="xs">
        <Radio.Group label="Answers" value={value.answers} error={errorOf(errors, `${path}.answers`)} onChange={(answers) => onChange({ ...value, answers: answers as Answers })}>
          <Group gap="md" mt={4}>
            <Radio value="any" label="Either" />
            <Radio value="yes" label="Yes: an answer citing an article" />
            <Radio value="no" label="No: hands over" />
          </Group>
        </Radio.Group>
        <Select
          label="Hand-over reason"
          placeholder="Any"
          clearable
          data={Object.entries(HANDOVER_REASONS).map(([v, label]) => ({ value: v, label }))}
          value={value.handoverReason}
          error={errorOf(errors, `${path}.handoverReason`)}
          onChange={(reason) => onChange({ ...value, handoverReason: reason as HandoverReason | null })}
          w={320}
        />
        <Group grow align="start">
          <Textarea
            label="Says"
            description="Phrases the reply says, one a line (case-insensitive)"
            autosize
            minRows={2}
            value={value.contains}
            error={errorOf(errors, `${path}.contains`)}
            onChange={(e) => onChange({ ...value, contains: e.currentTarget.value })}
          />
          <Textarea
            label="Never says"
            description="Phrases the reply must not say, one a line"
            autosize
            minRows={2}
            value={value.notContains}
            error={errorOf(errors, `${path}.notContains`)}
            onChange={(e) => onChange({ ...value, notContains: e.currentTarget.value })}
          />
        </Group>
        <TagsInput
          label="Cites one of these articles"
          description="Article ids (from an article's page); press Enter after each"
          value={value.citesArticleIds}
          error={errorOf(errors, `${path}.citesArticleIds`)}
          onChange={(ids) => onChange({ ...value, citesArticleIds: ids })}
        />
        {kept.length > 0 && <Text size="sm">Also checked (set through the API): {kept.join('; ')}</Text>}
      </Stack>
    </Fieldset>
  );
}

interface Props {
  initial: CaseState;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onSubmit(body: CaseBody): void;
  onCancel?: () => void;
}

export function CaseForm({ initial, submitLabel, pending, error, onSubmit, onCancel }: Props) {
  const [state, setState] = useState<CaseState>(initial);
  const errors = fieldErrors(error);
  const above = unplaced(errors, (path) => FIELDS.includes(path.split('.')[0]!));
  const setTurn = (index: number, turn: CaseState['turns'][number]) => setState({ ...state, turns: state.turns.map((t, i) => (i === index ? turn : t)) });
  return (
    <Stack gap="sm">
      <TextInput label="Name" required maxLength={200} value={state.name} error={errorOf(errors, 'name')} onChange={(e) => setState({ ...state, name: e.currentTarget.value })} />
      <TagsInput label="Tags" description="Labels to pick cases by in a run; press Enter after each" value={state.tags} error={errorOf(errors, 'tags')} onChange={(tags) => setState({ ...state, tags })} />
      {state.turns.map((turn, index) => (
        <Fieldset key={index} legend={`Turn ${index + 1}`}>
          <Stack gap="xs">
            <Textarea
              label="Customer message"
              required
              autosize
              minRows={2}
              value={turn.content}
              error={errorOf(errors, `turns.${index}.content`)}
              onChange={(e) => setTurn(index, { ...turn, content: e.currentTarget.value })}
            />
            {turn.attributes && Object.keys(turn.attributes).length > 0 && <Text size="sm">Sent with the customer&apos;s attributes {Object.keys(turn.attributes).join(', ')}.</Text>}
            <Group>
              <Checkbox
                label="Check this turn's reply on its own"
                checked={turn.expect !== null}
                onChange={(e) => setTurn(index, { ...turn, expect: e.currentTarget.checked ? EMPTY_EXPECTATION : null })}
              />
              {state.turns.length > 1 && (
                <Button variant="subtle" color="red" size="xs" onClick={() => setState({ ...state, turns: state.turns.filter((_, i) => i !== index) })}>
                  Remove turn {index + 1}
                </Button>
              )}
            </Group>
            {turn.expect && (
              <ExpectationFields
                legend={`What the reply to turn ${index + 1} meets`}
                path={`turns.${index}.expect`}
                value={turn.expect}
                errors={errors}
                onChange={(expect) => setTurn(index, { ...turn, expect })}
              />
            )}
          </Stack>
        </Fieldset>
      ))}
      {errorOf(errors, 'turns') && !state.turns.some((_, i) => errorOf(errors, `turns.${i}`)) && (
        <Text size="sm" c="var(--mantine-color-error)">
          {errorOf(errors, 'turns')}
        </Text>
      )}
      <Button variant="light" w="fit-content" disabled={state.turns.length >= 20} onClick={() => setState({ ...state, turns: [...state.turns, { content: '', expect: null }] })}>
        Add a turn
      </Button>
      <ExpectationFields legend="What the reply to the last turn meets" path="expect" value={state.expect} errors={errors} onChange={(expect) => setState({ ...state, expect })} />
      <Checkbox
        label="Call the agent's actions for real"
        description="By default a run's action steps succeed as a dry run and attributes are not called"
        checked={state.liveActions}
        onChange={(e) => setState({ ...state, liveActions: e.currentTarget.checked })}
      />
      <FormFooter above={above} submitLabel={submitLabel} pending={pending} onSubmit={() => onSubmit(caseBody(state))} onCancel={onCancel} />
    </Stack>
  );
}
