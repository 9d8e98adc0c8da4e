// A new test case, and one case to edit or delete.
import { Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useLocation } from 'wouter';
import { BackLink } from '../../../components/back-link';
import { ConfirmDelete } from '../../../components/confirm-delete';
import { ErrorState, Loading } from '../../../components/states';
import { WriteButton } from '../../../components/write-button';
import { useCreateTestCase, useDeleteTestCase, useTestCase, useUpdateTestCase } from '../api';
import { caseState, EMPTY_CASE } from '../expectation';
import { CaseForm } from './case-form';

export function NewCasePage({ agentId }: { agentId: string }) {
  const create = useCreateTestCase();
  const [, navigate] = useLocation();
  return (
    <Stack>
      <BackLink href={`/${agentId}`} label="the agent's tests" />
      <Title order={1} size="h2">
        New test case
      </Title>
      <CaseForm
        initial={EMPTY_CASE}
        submitLabel="Create test case"
        pending={create.isPending}
        error={create.error}
        onSubmit={(body) => create.mutate({ agentId, body }, { onSuccess: () => navigate(`/${agentId}`) })}
        onCancel={() => navigate(`/${agentId}`)}
      />
    </Stack>
  );
}

export function CasePage({ agentId, caseId }: { agentId: string; caseId: string }) {
  const testCase = useTestCase(caseId);
  const update = useUpdateTestCase();
  const remove = useDeleteTestCase();
  const [deleting, setDeleting] = useState(false);
  const [, navigate] = useLocation();
  if (testCase.isPending) return <Loading label="Loading the test case…" />;
  if (testCase.error) return <ErrorState error={testCase.error} title="The test case could not be loaded" />;
  const c = testCase.data;
  return (
    <Stack>
      <BackLink href={`/${agentId}`} label="the agent's tests" />
      <Group justify="space-between" align="start">
        <Title order={1} size="h2">
          {c.name}
        </Title>
        <WriteButton color="red" variant="default" onClick={() => setDeleting(true)}>
          Delete test case
        </WriteButton>
      </Group>
      {c.fromInteractionId && <Text size="sm">Made from a conversation.</Text>}
      {update.isSuccess && (
        <Text size="sm" role="status">
          Test case saved.
        </Text>
      )}
      <CaseForm
        key={c.updatedAt}
        initial={caseState(c)}
        submitLabel="Save test case"
        pending={update.isPending}
        error={update.error}
        onSubmit={(body) => update.mutate({ caseId: c.id, body })}
      />
      <ConfirmDelete
        opened={deleting}
        onClose={() => setDeleting(false)}
        action="Delete test case"
        pending={remove.isPending}
        error={remove.error}
        onConfirm={() => remove.mutate(c.id, { onSuccess: () => navigate(`/${agentId}`) })}
      >
        Delete the test case “{c.name}”? Runs that ran it keep its results under its name.
      </ConfirmDelete>
    </Stack>
  );
}
