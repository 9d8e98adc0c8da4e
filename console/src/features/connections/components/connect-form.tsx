// Connecting a provider, or editing its connection: the provider's own fields. A stored secret is
// shown as `********` and sent back as such, which keeps it; typing over it replaces it. The API
// checks the credentials with the provider before storing them: a refusal is shown in its words,
// and a validation error on the field it names.
import { Alert, Button, Group, Modal, PasswordInput, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { type Schemas } from '../../../api/client';
import { errorOf, fieldErrors, unplaced } from '../../../components/field-errors';
import { errorText } from '../../../components/states';
import { WriteButton } from '../../../components/write-button';
import { useConnect } from '../api';
import { type Credentials, type Field, type ProviderSpec } from '../providers';

type Values = Partial<Record<Field, string>>;

/** The form's first values: the stored fields (secrets masked), and the base URL unless it is the default. */
function initialValues(spec: ProviderSpec, connection: Schemas['ProviderConnection']): Values {
  if (!connection.connected) return {};
  const credentials = connection.credentials ?? {};
  const base = connection.baseUrl && connection.baseUrl !== spec.defaultBase?.(credentials) ? connection.baseUrl : undefined;
  return { ...credentials, ...(base ? { baseUrl: base } : {}) };
}

export function ConnectForm({ spec, connection, opened, onClose }: { spec: ProviderSpec; connection: Schemas['ProviderConnection']; opened: boolean; onClose(): void }) {
  const connect = useConnect(spec.id);
  const [values, setValues] = useState<Values>(() => initialValues(spec, connection));
  // Google Drive signs in with one of two secrets: the one stored, else the access token.
  const [alternative, setAlternative] = useState(() => spec.alternatives?.find((a) => a.fields.some((f) => values[f] !== undefined))?.label ?? spec.alternatives?.[0]?.label);
  const hidden = new Set(spec.alternatives?.filter((a) => a.label !== alternative).flatMap((a) => a.fields));
  const fields = spec.fields.filter((f) => !hidden.has(f.name));
  const problems = fieldErrors(connect.error);
  const rest = unplaced(problems, (path) => fields.some((f) => path === f.name || path.startsWith(`${f.name}.`)));
  const set = (name: Field, value: string) => setValues({ ...values, [name]: value });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const body: Credentials = {};
    for (const { name } of fields) {
      const value = values[name]?.trim();
      if (value) body[name] = value;
    }
    connect.mutate(body, { onSuccess: onClose });
  };
  const title = connection.connected ? `Edit the ${spec.label} connection` : `Connect ${spec.label}`;
  return (
    <Modal opened={opened} onClose={onClose} title={title} size="lg">
      <form aria-label={title} onSubmit={submit}>
        <Stack gap="sm">
          <Text size="sm">
            {spec.label} checks these credentials before they are stored; they are kept encrypted, and the secrets among them are never shown again.
            {connection.connected && ' A secret shown as ******** stays as it is unless you type a new one.'}
          </Text>
          {spec.alternatives && (
            <SegmentedControl aria-label="Sign in with" data={spec.alternatives.map((a) => a.label)} value={alternative} onChange={setAlternative} w="fit-content" />
          )}
          {fields.map((field) => {
            const props = {
              label: field.label,
              description: field.description,
              required: field.required,
              value: values[field.name] ?? '',
              error: errorOf(problems, field.name),
              onChange: (e: { currentTarget: { value: string } }) => set(field.name, e.currentTarget.value),
            };
            if (field.secret) return <PasswordInput key={field.name} {...props} autoComplete="off" />;
            return <TextInput key={field.name} {...props} />;
          })}
          {connect.error && rest.length > 0 && (
            <Alert color="red" role="alert" title={`${spec.label} was not connected`}>
              {problems.fields.size || problems.other.length > 1 ? rest.join('; ') : errorText(connect.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <WriteButton type="submit" loading={connect.isPending}>
              {connection.connected ? 'Save connection' : 'Connect'}
            </WriteButton>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
