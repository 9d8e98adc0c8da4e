// One guardrail: edit it, test it alone (even disabled), delete it; and the page of a new one.
import { Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useLocation } from 'wouter';
import { BackLink } from '../../../components/back-link';
import { ConfirmDelete } from '../../../components/confirm-delete';
import { ErrorState, Loading } from '../../../components/states';
import { WriteButton } from '../../../components/write-button';
import { useCreateGuardrail, useDeleteGuardrail, useGuardrail, useUpdateGuardrail } from '../api';
import { GuardrailForm } from './guardrail-form';
import { TestPanel } from './test-panel';

export function NewGuardrail() {
  const create = useCreateGuardrail();
  const [, navigate] = useLocation();
  return (
    <Stack>
      <BackLink href="/" label="the guardrails" />
      <Title order={1} size="h2">
        New guardrail
      </Title>
      <GuardrailForm submitLabel="Create guardrail" pending={create.isPending} error={create.error} onSubmit={(body) => create.mutate(body, { onSuccess: (g) => navigate(`/${g.id}`) })} />
    </Stack>
  );
}

export function GuardrailPage({ id }: { id: string }) {
  const guardrail = useGuardrail(id);
  const update = useUpdateGuardrail();
  const remove = useDeleteGuardrail();
  const [deleting, setDeleting] = useState(false);
  const [saved, setSaved] = useState(false);
  const [, navigate] = useLocation();
  if (guardrail.isPending) return <Loading label="Loading the guardrail…" />;
  if (guardrail.error) {
    return (
      <Stack>
        <BackLink href="/" label="the guardrails" />
        <ErrorState error={guardrail.error} title="The guardrail could not be loaded" />
      </Stack>
    );
  }
  const g = guardrail.data;
  return (
    <Stack>
      <BackLink href="/" label="the guardrails" />
      <Group justify="space-between">
        <Title order={1} size="h2">
          {g.name}
        </Title>
        <WriteButton color="red" variant="light" onClick={() => setDeleting(true)}>
          Delete guardrail
        </WriteButton>
      </Group>
      <GuardrailForm
        key={g.updatedAt}
        guardrail={g}
        submitLabel="Save guardrail"
        pending={update.isPending}
        error={update.error}
        onSubmit={(body) => {
          setSaved(false);
          update.mutate({ id, body }, { onSuccess: () => void guardrail.refetch().then(() => setSaved(true)) });
        }}
      />
      {saved && (
        <Text size="sm" role="status">
          Guardrail saved.
        </Text>
      )}
      <TestPanel key={g.stage} guardrailId={id} stage={g.stage} />
      <ConfirmDelete opened={deleting} onClose={() => setDeleting(false)} action="Delete guardrail" pending={remove.isPending} error={remove.error} onConfirm={() => remove.mutate(id, { onSuccess: () => navigate('/') })}>
        Delete the guardrail “{g.name}”? It stops applying to its agents.
      </ConfirmDelete>
    </Stack>
  );
}
