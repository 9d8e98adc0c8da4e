// Creates or edits one external API call step. A secret header keeps its stored value while its
// field still reads ******** (the API keeps a value sent back as ********); typing a new value
// replaces it, sealed. The API's validation messages are placed on the field they name.
import { ActionIcon, Button, Checkbox, Fieldset, Group, PasswordInput, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { errorOf, fieldErrors } from '../../../components/field-errors';
import { ErrorState } from '../../../components/states';
import { WriteButton } from '../../../components/write-button';
import { type DataStep, type InputField, MASK, METHODS, type StepBody, useCreateStep, useUpdateStep } from '../api';
import { PlaceholderList } from './placeholders';

interface HeaderRow {
  name: string;
  value: string;
  secret: boolean;
  /** A secret the API holds: its field starts as ******** and sending that back keeps it. */
  stored: boolean;
}

function headerRows(step?: DataStep): HeaderRow[] {
  return Object.entries(step?.headers ?? {}).map(([name, value]) => ({ name, value: String(value), secret: value === MASK, stored: value === MASK }));
}

function headersBody(rows: HeaderRow[]): StepBody['requestHeaders'] {
  const headers: StepBody['requestHeaders'] = {};
  for (const row of rows) {
    if (!row.name.trim()) continue;
    // ******** of a stored secret goes back as it is: the API keeps the sealed value.
    headers[row.name.trim()] = row.stored && row.value === MASK ? MASK : row.secret ? { hide: true, value: row.value } : row.value;
  }
  return headers;
}

export function StepForm({ toolId, step, inputs, earlier, onDone }: { toolId: string; step?: DataStep; inputs: InputField[]; earlier: DataStep[]; onDone: () => void }) {
  const create = useCreateStep();
  const update = useUpdateStep();
  const save = step ? update : create;
  const [name, setName] = useState(step?.name ?? '');
  const [method, setMethod] = useState<StepBody['requestMethod']>((step?.method as StepBody['requestMethod'] | undefined) ?? 'GET');
  const [url, setUrl] = useState(step?.url ?? '');
  const [headers, setHeaders] = useState<HeaderRow[]>(() => headerRows(step));
  const [body, setBody] = useState(step?.body === null || step?.body === undefined ? '' : JSON.stringify(step.body, null, 2));
  const [mapping, setMapping] = useState(() => Object.entries(step?.saveFromResponse ?? {}).map(([key, path]) => ({ key, path })));
  const [bodyError, setBodyError] = useState<string>();
  const errors = fieldErrors(save.error);
  const setHeader = (index: number, next: Partial<HeaderRow>) => setHeaders(headers.map((h, i) => (i === index ? { ...h, ...next } : h)));
  const setMap = (index: number, next: Partial<{ key: string; path: string }>) => setMapping(mapping.map((m, i) => (i === index ? { ...m, ...next } : m)));

  const submit = () => {
    let requestBody: unknown = null;
    if (body.trim()) {
      try {
        requestBody = JSON.parse(body);
      } catch (e) {
        setBodyError(`not JSON: ${(e as Error).message}`);
        return;
      }
    }
    setBodyError(undefined);
    const values: StepBody = {
      name: name.trim(),
      requestMethod: method,
      requestUrl: url.trim(),
      requestHeaders: headersBody(headers),
      responseMapping: Object.fromEntries(mapping.filter((m) => m.key.trim()).map((m) => [m.key.trim(), m.path.trim()])),
      // A new step without a body sends none; an edited one sends null to clear a body it had.
      ...(requestBody !== null || step ? { requestBody } : {}),
    };
    if (step) update.mutate({ id: step.id, ...values }, { onSuccess: onDone });
    else create.mutate({ toolId, ...values }, { onSuccess: onDone });
  };

  return (
    <form
      aria-label={step ? `Edit step ${step.name}` : 'New step'}
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <Stack gap="sm">
        <Group align="end">
          <TextInput label="Step name" description="Later steps refer to its outputs as ${name.key}" required value={name} onChange={(e) => setName(e.currentTarget.value)} error={errorOf(errors, 'name')} w={260} />
          <Select label="Method" data={[...METHODS]} value={method} onChange={(v) => setMethod((v ?? 'GET') as StepBody['requestMethod'])} allowDeselect={false} error={errorOf(errors, 'requestMethod')} w={120} />
        </Group>
        <TextInput
          label="URL"
          description="http or https; ${input} and ${step.output} are filled in (URL-encoded)"
          required
          value={url}
          onChange={(e) => setUrl(e.currentTarget.value)}
          error={errorOf(errors, 'requestUrl')}
        />
        <PlaceholderList step={{ url, headers: Object.fromEntries(headers.map((h) => [h.name, h.secret ? '' : h.value])), body }} inputs={inputs} earlier={earlier} />
        <Fieldset legend="Headers">
          <Stack gap="xs">
            {headers.map((row, index) => {
              const label = `Header ${index + 1}`;
              const error = errorOf(errors, `requestHeaders.${row.name.trim()}`);
              return (
                <Group key={index} align="start" gap="xs" role="group" aria-label={label}>
                  <TextInput
                    label={`${label} name`}
                    value={row.name}
                    // The API keeps a stored secret by its header name: a renamed one needs its value again.
                    onChange={(e) => setHeader(index, row.stored ? { name: e.currentTarget.value, stored: false, value: '' } : { name: e.currentTarget.value })}
                    error={error}
                    w={220}
                  />
                  {row.secret ? (
                    <PasswordInput
                      label={`${label} value`}
                      description={row.stored && row.value === MASK ? 'Stored secret: kept unless you type a new value' : 'Secret: stored sealed, shown as ********'}
                      value={row.value}
                      onChange={(e) => setHeader(index, { value: e.currentTarget.value })}
                      flex={1}
                    />
                  ) : (
                    <TextInput label={`${label} value`} value={row.value} onChange={(e) => setHeader(index, { value: e.currentTarget.value })} flex={1} />
                  )}
                  <Checkbox
                    label="Secret"
                    checked={row.secret}
                    // A stored secret stays secret: the API re-seals any value sent where one was.
                    disabled={row.stored}
                    onChange={(e) => setHeader(index, { secret: e.currentTarget.checked })}
                    mt={30}
                  />
                  <ActionIcon variant="subtle" color="red" mt={26} onClick={() => setHeaders(headers.filter((_, i) => i !== index))} aria-label={`Remove ${label.toLowerCase()}`}>
                    ×
                  </ActionIcon>
                </Group>
              );
            })}
            <Group>
              <Button variant="subtle" size="xs" onClick={() => setHeaders([...headers, { name: '', value: '', secret: false, stored: false }])}>
                Add a header
              </Button>
            </Group>
            {errorOf(errors, 'requestHeaders') && !headers.some((h) => errorOf(errors, `requestHeaders.${h.name.trim()}`)) && (
              <Text size="sm" c="red.9">
                {errorOf(errors, 'requestHeaders')}
              </Text>
            )}
          </Stack>
        </Fieldset>
        <Textarea
          label="Body (JSON)"
          description={`Optional. A value that is exactly "\${x}" keeps its JSON type; a secret value is { "hide": true, "value": "..." }: visible here while you type it, then stored sealed, shown as ${MASK} and kept when sent back.`}
          autosize
          minRows={2}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          value={body}
          onChange={(e) => setBody(e.currentTarget.value)}
          error={bodyError ?? errorOf(errors, 'requestBody')}
        />
        <Fieldset legend="Response mapping">
          <Stack gap="xs">
            <Text size="sm" c="dimmed">
              Output name → path into the JSON response: data.status, data.items[0].sku, results[*].name.
            </Text>
            {mapping.map((row, index) => {
              const label = `Mapping ${index + 1}`;
              const at = errorOf(errors, `responseMapping.${row.key.trim()}`);
              return (
                <Group key={index} align="start" gap="xs" role="group" aria-label={label}>
                  <TextInput label={`${label} output`} value={row.key} onChange={(e) => setMap(index, { key: e.currentTarget.value })} w={200} />
                  <TextInput label={`${label} path`} value={row.path} onChange={(e) => setMap(index, { path: e.currentTarget.value })} error={at} flex={1} />
                  <ActionIcon variant="subtle" color="red" mt={26} onClick={() => setMapping(mapping.filter((_, i) => i !== index))} aria-label={`Remove ${label.toLowerCase()}`}>
                    ×
                  </ActionIcon>
                </Group>
              );
            })}
            <Group>
              <Button variant="subtle" size="xs" onClick={() => setMapping([...mapping, { key: '', path: '' }])}>
                Add a mapping
              </Button>
            </Group>
          </Stack>
        </Fieldset>
        <Group>
          <WriteButton type="submit" loading={save.isPending}>
            {step ? 'Save step' : 'Add step'}
          </WriteButton>
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
        </Group>
        {save.error && errors.fields.size === 0 && <ErrorState error={save.error} title="The step was not saved" />}
        {save.error && errors.fields.size > 0 && (
          <Text size="sm" c="red.9" role="alert">
            The step was not saved: see the fields marked above.
          </Text>
        )}
      </Stack>
    </form>
  );
}
