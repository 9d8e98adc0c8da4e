// A new widget key: its name, the page origins allowed to use it (one a line) and an optional
// visitor rate limit, with the API's validation messages on their fields (`body.allowedOrigins.0`
// on the origins, saying which line).
import { NumberInput, Stack, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { errorOf, type FieldErrors, fieldErrors, unplaced } from '../../../components/field-errors';
import { FormFooter } from '../../../components/form-footer';
import { useCreateWidgetKey, type WidgetKeyFields } from '../api';

const FIELDS = ['name', 'allowedOrigins', 'visitorRateLimit'];

/** The lines typed, without blank ones: what is sent as `allowedOrigins`. */
const originsOf = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/** The origins' messages, an entry's named by its line ("Line 2 (https://shop.example/): must be an origin ..."). */
function originsError(errors: FieldErrors, sent: string[]): string | undefined {
  const entries = [...errors.fields].filter(([key]) => /^allowedOrigins\.\d+$/.test(key));
  if (!entries.length) return errorOf(errors, 'allowedOrigins');
  return entries
    .map(([key, message]) => {
      const index = Number(key.split('.')[1]);
      return `Line ${index + 1} (${sent[index] ?? ''}): ${message}`;
    })
    .join('; ');
}

export function WidgetKeyForm({ agentId }: { agentId: string }) {
  const create = useCreateWidgetKey();
  const [name, setName] = useState('');
  const [origins, setOrigins] = useState('');
  const [limit, setLimit] = useState<string | number>('');
  const errors = fieldErrors(create.error);
  const above = unplaced(errors, (path) => FIELDS.includes(path.split('.')[0]!));
  const sent = create.variables?.body.allowedOrigins ?? [];
  const submit = () => {
    const body: WidgetKeyFields = { name, allowedOrigins: originsOf(origins) };
    if (typeof limit === 'number') body.visitorRateLimit = limit;
    create.mutate(
      { agentId, body },
      {
        onSuccess: () => {
          setName('');
          setOrigins('');
          setLimit('');
        },
      },
    );
  };
  return (
    <Stack gap="xs">
      <TextInput label="Key name" description="Where the widget is used, e.g. Shop" value={name} error={errorOf(errors, 'name')} onChange={(e) => setName(e.currentTarget.value)} />
      <Textarea
        label="Allowed origins"
        description="One per line, as browsers send them: scheme://host[:port], no path (https://shop.example, http://localhost:3000)"
        autosize
        minRows={2}
        value={origins}
        error={originsError(errors, sent)}
        onChange={(e) => setOrigins(e.currentTarget.value)}
      />
      <NumberInput
        label="Visitor rate limit (optional)"
        description="Requests one visitor may make per rate-limit window; empty for the server's default"
        min={1}
        allowDecimal={false}
        clampBehavior="none"
        w={360}
        value={limit}
        error={errorOf(errors, 'visitorRateLimit')}
        onChange={setLimit}
      />
      <FormFooter above={above} title="Not created" submitLabel="Create widget key" pending={create.isPending} onSubmit={submit} />
    </Stack>
  );
}
