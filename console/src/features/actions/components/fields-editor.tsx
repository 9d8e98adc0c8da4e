// The input and output fields of an action: a row per field, saved together (each list replaces the
// stored one). The API's validation message is placed on the row and cell it names.
import { ActionIcon, Button, Checkbox, Fieldset, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { errorOf, type FieldErrors, fieldErrors } from '../../../components/field-errors';
import { ErrorState } from '../../../components/states';
import { WriteButton } from '../../../components/write-button';
import { FIELD_TYPES, type FieldType, type InputField, type OutputField, type ToolWithSteps, useUpdateTool } from '../api';

const TYPE_OPTIONS = FIELD_TYPES.map((t) => ({ value: t, label: t }));

function FieldRow({
  list,
  index,
  field,
  errors,
  onChange,
  onRemove,
}: {
  list: 'inputFields' | 'outputFields';
  index: number;
  field: InputField | OutputField;
  errors: FieldErrors;
  onChange: (next: Partial<InputField>) => void;
  onRemove: () => void;
}) {
  const label = `${list === 'inputFields' ? 'Input' : 'Output'} ${index + 1}`;
  const at = (key: string) => errorOf(errors, `${list}.${index}.${key}`);
  return (
    <Group align="start" gap="xs" role="group" aria-label={label}>
      <TextInput label={`${label} name`} value={field.name} onChange={(e) => onChange({ name: e.currentTarget.value })} error={at('name')} w={220} />
      <Select label={`${label} type`} data={TYPE_OPTIONS} value={field.type} onChange={(v) => onChange({ type: (v ?? 'string') as FieldType })} allowDeselect={false} w={120} error={at('type')} />
      {'required' in field && (
        <>
          <TextInput label={`${label} description`} value={field.description} onChange={(e) => onChange({ description: e.currentTarget.value })} error={at('description')} flex={1} />
          <Checkbox label="Required" checked={field.required} onChange={(e) => onChange({ required: e.currentTarget.checked })} mt={30} />
        </>
      )}
      <ActionIcon variant="subtle" color="red" mt={26} onClick={onRemove} aria-label={`Remove ${label.toLowerCase()}`} title={`Remove ${label.toLowerCase()}`}>
        ×
      </ActionIcon>
    </Group>
  );
}

export function FieldsEditor({ tool }: { tool: ToolWithSteps }) {
  const update = useUpdateTool();
  const [inputs, setInputs] = useState<InputField[]>(tool.inputFields);
  const [outputs, setOutputs] = useState<OutputField[]>(tool.outputFields);
  const errors = fieldErrors(update.error);
  const replace = <T,>(list: T[], index: number, next: Partial<T>) => list.map((f, i) => (i === index ? { ...f, ...next } : f));
  return (
    <form
      aria-label="Input and output fields"
      onSubmit={(e) => {
        e.preventDefault();
        update.mutate({ id: tool.id, inputFields: inputs, outputFields: outputs });
      }}
    >
      <Stack>
        <Fieldset legend="Inputs">
          <Stack gap="xs">
            <Text size="sm" c="dimmed">
              What the caller passes; steps use them as {'${name}'}. Checked before any call (required present; numbers and booleans also accepted as text).
            </Text>
            {inputs.length === 0 && <Text size="sm">No inputs.</Text>}
            {inputs.map((field, index) => (
              <FieldRow
                key={index}
                list="inputFields"
                index={index}
                field={field}
                errors={errors}
                onChange={(next) => setInputs(replace(inputs, index, next))}
                onRemove={() => setInputs(inputs.filter((_, i) => i !== index))}
              />
            ))}
            <Group>
              <Button variant="subtle" size="xs" onClick={() => setInputs([...inputs, { name: '', type: 'string', required: false, description: '' }])}>
                Add an input
              </Button>
            </Group>
          </Stack>
        </Fieldset>
        <Fieldset legend="Outputs">
          <Stack gap="xs">
            <Text size="sm" c="dimmed">
              What the steps&apos; response mappings together must produce; checked after the last step.
            </Text>
            {outputs.length === 0 && <Text size="sm">No outputs.</Text>}
            {outputs.map((field, index) => (
              <FieldRow
                key={index}
                list="outputFields"
                index={index}
                field={field}
                errors={errors}
                onChange={(next) => setOutputs(replace(outputs, index, next))}
                onRemove={() => setOutputs(outputs.filter((_, i) => i !== index))}
              />
            ))}
            <Group>
              <Button variant="subtle" size="xs" onClick={() => setOutputs([...outputs, { name: '', type: 'string' }])}>
                Add an output
              </Button>
            </Group>
          </Stack>
        </Fieldset>
        <Group>
          <WriteButton type="submit" loading={update.isPending}>
            Save fields
          </WriteButton>
          {update.isSuccess && !update.isPending && (
            <Text size="sm" role="status">
              Fields saved.
            </Text>
          )}
        </Group>
        {update.error && <ErrorState error={update.error} title="The fields were not saved" />}
      </Stack>
    </form>
  );
}
