// One action or attribute: rename and describe it, its input and output fields, its agents, its
// external API call steps in order, the test panel, and delete (after a confirmation).
import { Badge, Group, Stack, Tabs, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useLocation } from 'wouter';
import { BackLink } from '../../../components/back-link';
import { ConfirmDelete } from '../../../components/confirm-delete';
import { errorOf, fieldErrors } from '../../../components/field-errors';
import { ErrorState, Loading } from '../../../components/states';
import { WriteButton } from '../../../components/write-button';
import { type ToolWithSteps, useAssignOnCreateError, useDeleteTool, useTool, useUpdateTool } from '../api';
import { ActionAgents } from './action-agents';
import { FieldsEditor } from './fields-editor';
import { StepList } from './step-list';
import { TestPanel } from './test-panel';

function Details({ tool }: { tool: ToolWithSteps }) {
  const update = useUpdateTool();
  const [name, setName] = useState(tool.name);
  const [description, setDescription] = useState(tool.description);
  const errors = fieldErrors(update.error);
  const changed = name.trim() !== tool.name || description !== tool.description;
  return (
    <form
      aria-label="Name and description"
      onSubmit={(e) => {
        e.preventDefault();
        update.mutate({ id: tool.id, name: name.trim(), description });
      }}
    >
      <Stack gap="sm">
        <Group align="start" grow>
          <TextInput label="Name" required value={name} onChange={(e) => setName(e.currentTarget.value)} error={errorOf(errors, 'name')} />
          <Textarea label="Description" autosize minRows={1} value={description} onChange={(e) => setDescription(e.currentTarget.value)} error={errorOf(errors, 'description')} />
        </Group>
        <Group>
          <WriteButton type="submit" variant="default" loading={update.isPending} disabled={!changed}>
            Save name and description
          </WriteButton>
        </Group>
        {update.error && errors.fields.size === 0 && <ErrorState error={update.error} title="It was not saved" />}
      </Stack>
    </form>
  );
}

/** The failure of the agent assignment made when the action was created, until the agent is assigned. */
function AssignOnCreateError({ tool }: { tool: ToolWithSteps }) {
  const error = useAssignOnCreateError(tool);
  return error ? <ErrorState error={error} title="It was created but not assigned to the agent (see Agents)" /> : null;
}

export function ActionPage({ id }: { id: string }) {
  const tool = useTool(id);
  const remove = useDeleteTool();
  const [confirming, setConfirming] = useState(false);
  const [, navigate] = useLocation();
  if (tool.isPending) return <Loading label="Loading the action…" />;
  if (tool.error) return <ErrorState error={tool.error} title="The action could not be loaded" />;
  const t = tool.data;
  const kind = t.alwaysGet ? 'attribute' : 'action';
  return (
    <Stack>
      <BackLink href="/" label="the actions and attributes" />
      <Group justify="space-between" align="start">
        <Group gap="sm">
          <Title order={1} size="h2">
            {t.name}
          </Title>
          <Badge variant="light">{t.alwaysGet ? 'Attribute' : 'Action'}</Badge>
        </Group>
        <WriteButton color="red" variant="default" onClick={() => setConfirming(true)}>
          Delete {kind}
        </WriteButton>
      </Group>
      <Text size="sm">
        {t.alwaysGet
          ? 'Runs for every conversation of its agents; what it fetches is under attributes.<name> for rules.'
          : "Called from an intent rule's flow by a tool node, with the rule's collected fields as inputs."}
      </Text>
      <AssignOnCreateError tool={t} />
      <Details key={`${t.name}\n${t.description}`} tool={t} />
      <Tabs defaultValue="fields" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="fields">Input and output fields</Tabs.Tab>
          <Tabs.Tab value="steps">External API calls ({t.steps.length})</Tabs.Tab>
          <Tabs.Tab value="test">Test</Tabs.Tab>
          <Tabs.Tab value="agents">Agents ({t.botIds.length})</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="fields" pt="md">
          <FieldsEditor tool={t} />
        </Tabs.Panel>
        <Tabs.Panel value="steps" pt="md">
          <StepList tool={t} />
        </Tabs.Panel>
        <Tabs.Panel value="test" pt="md">
          <TestPanel tool={t} />
        </Tabs.Panel>
        <Tabs.Panel value="agents" pt="md">
          <ActionAgents key={t.botIds.join()} tool={t} />
        </Tabs.Panel>
      </Tabs>
      <ConfirmDelete
        opened={confirming}
        onClose={() => setConfirming(false)}
        action={`Delete ${kind}`}
        pending={remove.isPending}
        error={remove.error}
        errorTitle={`The ${kind} was not deleted`}
        onConfirm={() => remove.mutate(t.id, { onSuccess: () => navigate('/') })}
      >
        Delete “{t.name}” with its {t.steps.length} external API call step(s) and its agent assignments? The API refuses while an intent rule&apos;s flow calls it.
      </ConfirmDelete>
    </Stack>
  );
}
