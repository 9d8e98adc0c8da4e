// The fields of a tag group (create and edit), with the API's validation messages on their fields.
import { Checkbox, Group, Stack, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { errorOf, fieldErrors, unplaced } from '../../../components/field-errors';
import { FormFooter } from '../../../components/form-footer';
import type { GroupFields } from '../api';

const FIELDS = ['title', 'description', 'prompt', 'multiselect', 'mandatory', 'isOutputTagGroup'];
export const EMPTY_GROUP: GroupFields = { title: '', description: '', prompt: '', multiselect: false, mandatory: false, isOutputTagGroup: false };

interface Props {
  initial: GroupFields;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onSubmit: (fields: GroupFields) => void;
  onCancel?: () => void;
}

export function GroupForm({ initial, submitLabel, pending, error, onSubmit, onCancel }: Props) {
  // Only the six fields: a stored group also has its id and dates, which the API refuses in a body.
  const [fields, setFields] = useState<GroupFields>(() => ({
    title: initial.title,
    description: initial.description,
    prompt: initial.prompt,
    multiselect: initial.multiselect,
    mandatory: initial.mandatory,
    isOutputTagGroup: initial.isOutputTagGroup,
  }));
  const errors = fieldErrors(error);
  const above = unplaced(errors, (path) => FIELDS.includes(path.split('.')[0]!));
  const text = (name: 'title' | 'description' | 'prompt') => ({
    value: fields[name],
    error: errorOf(errors, name),
    onChange: (e: { currentTarget: { value: string } }) => setFields({ ...fields, [name]: e.currentTarget.value }),
  });
  const flag = (name: 'multiselect' | 'mandatory' | 'isOutputTagGroup') => ({
    checked: fields[name],
    error: errorOf(errors, name),
    onChange: (e: { currentTarget: { checked: boolean } }) => setFields({ ...fields, [name]: e.currentTarget.checked }),
  });
  return (
    <Stack gap="xs">
      <TextInput label="Group title" {...text('title')} />
      <TextInput label="Description" {...text('description')} />
      <Textarea label="How the agent chooses" description="Tells the agent how to pick tags of this group" autosize minRows={2} {...text('prompt')} />
      <Group>
        <Checkbox label="Several tags may apply" {...flag('multiselect')} />
        <Checkbox label="Mandatory: every conversation gets one" {...flag('mandatory')} />
        <Checkbox label="Outcome: chosen after the answer" {...flag('isOutputTagGroup')} />
      </Group>
      <FormFooter above={above} submitLabel={submitLabel} pending={pending} onSubmit={() => onSubmit(fields)} onCancel={onCancel} />
    </Stack>
  );
}
