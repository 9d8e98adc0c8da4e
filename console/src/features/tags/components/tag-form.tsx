// The fields of a tag (add and edit). A name the group already has is a 409, shown on the name.
import { Alert, Button, Group, TextInput } from '@mantine/core';
import { useState } from 'react';
import { ApiError } from '../../../api/client';
import { errorOf, fieldErrors, unplaced } from '../../../components/field-errors';
import { WriteButton } from '../../../components/write-button';
import type { TagFields } from '../api';

interface Props {
  initial: TagFields;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onSubmit: (fields: TagFields) => void;
  onCancel?: () => void;
}

export function TagForm({ initial, submitLabel, pending, error, onSubmit, onCancel }: Props) {
  const [fields, setFields] = useState(initial);
  const conflict = error instanceof ApiError && error.status === 409 ? error.message : undefined;
  const errors = fieldErrors(conflict ? null : error);
  const above = unplaced(errors, (path) => path === 'tagName' || path === 'tagDescription');
  return (
    <Group align="flex-start" wrap="wrap">
      <TextInput label="Tag name" value={fields.tagName} error={errorOf(errors, 'tagName') ?? conflict} onChange={(e) => setFields({ ...fields, tagName: e.currentTarget.value })} />
      <TextInput
        label="Tag description"
        w={320}
        value={fields.tagDescription}
        error={errorOf(errors, 'tagDescription')}
        onChange={(e) => setFields({ ...fields, tagDescription: e.currentTarget.value })}
      />
      <WriteButton mt={24} loading={pending} onClick={() => onSubmit(fields)}>
        {submitLabel}
      </WriteButton>
      {onCancel && (
        <Button mt={24} variant="default" onClick={onCancel}>
          Cancel
        </Button>
      )}
      {above.length > 0 && (
        <Alert color="red" title="Not saved" role="alert" w="100%">
          {above.join('; ')}
        </Alert>
      )}
    </Group>
  );
}
