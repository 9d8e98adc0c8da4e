// The fields of a webhook endpoint (create and edit): its URL, the events it receives (a checkbox
// per event type), a description and, when editing, whether it is enabled; the API's validation
// messages on their fields (`body.url`, `body.events`).
import { Checkbox, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { errorOf, fieldErrors, unplaced } from '../../../components/field-errors';
import { FormFooter } from '../../../components/form-footer';
import { EVENT_TYPES, type WebhookEvent } from '../api';

const FIELDS = ['url', 'events', 'description', 'enabled'];

export interface WebhookFields {
  url: string;
  events: WebhookEvent[];
  description: string;
  /** Only when editing: creating makes an enabled endpoint. */
  enabled?: boolean;
}

export const EMPTY_WEBHOOK: WebhookFields = { url: '', events: [], description: '' };

interface Props {
  initial: WebhookFields;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onSubmit: (fields: WebhookFields) => void;
  onCancel?: () => void;
}

export function WebhookForm({ initial, submitLabel, pending, error, onSubmit, onCancel }: Props) {
  const [fields, setFields] = useState<WebhookFields>(initial);
  const errors = fieldErrors(error);
  const above = unplaced(errors, (path) => FIELDS.includes(path.split('.')[0]!));
  return (
    <Stack gap="xs">
      <TextInput
        label="Endpoint URL"
        description="An http or https URL that receives the events with POST"
        value={fields.url}
        error={errorOf(errors, 'url')}
        onChange={(e) => setFields({ ...fields, url: e.currentTarget.value })}
      />
      <Checkbox.Group label="Events" description="What is sent to this endpoint" value={fields.events} error={errorOf(errors, 'events')} onChange={(events) => setFields({ ...fields, events: events as WebhookEvent[] })}>
        <Stack gap={6} mt={6}>
          {Object.entries(EVENT_TYPES).map(([type, when]) => (
            <Checkbox
              key={type}
              value={type}
              label={
                <>
                  <Text span size="sm" ff="monospace">
                    {type}
                  </Text>
                  <Text span size="sm">
                    : {when}
                  </Text>
                </>
              }
            />
          ))}
        </Stack>
      </Checkbox.Group>
      <TextInput label="Description" value={fields.description} error={errorOf(errors, 'description')} onChange={(e) => setFields({ ...fields, description: e.currentTarget.value })} />
      {fields.enabled !== undefined && (
        <Switch
          label="Enabled"
          description="Turning a disabled endpoint back on clears its failure record"
          checked={fields.enabled}
          error={errorOf(errors, 'enabled')}
          onChange={(e) => setFields({ ...fields, enabled: e.currentTarget.checked })}
        />
      )}
      <FormFooter above={above} submitLabel={submitLabel} pending={pending} onSubmit={() => onSubmit(fields)} onCancel={onCancel} />
    </Stack>
  );
}
