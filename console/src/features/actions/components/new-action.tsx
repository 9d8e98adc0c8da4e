// A new action or attribute: its name, description and kind; assigned to the picked agent, if any.
import { Group, Paper, SegmentedControl, Stack, Textarea, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { ErrorState } from '../../../components/states';
import { WriteButton } from '../../../components/write-button';
import { useAssignOnCreate, useCreateTool } from '../api';

export function NewAction({ agentId, onCreated }: { agentId: string | null; onCreated: (id: string) => void }) {
  const create = useCreateTool();
  const assign = useAssignOnCreate();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [kind, setKind] = useState('action');
  const submit = async () => {
    const tool = await create.mutateAsync({ name: name.trim(), description, alwaysGet: kind === 'attribute' });
    // Created from an agent's list: it belongs to that agent, as the list it came from promised. It
    // exists either way, so its page opens; a failed assignment is shown there (not here, where
    // pressing Create again would make a second one).
    if (agentId) await assign.mutateAsync({ id: tool.id, add: [agentId], remove: [] }).catch(() => undefined);
    onCreated(tool.id);
  };
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="new-action-title">
      <form
        aria-label="New action or attribute"
        onSubmit={(e) => {
          e.preventDefault();
          submit().catch(() => undefined);
        }}
      >
        <Stack gap="sm">
          <Title order={2} size="h4" id="new-action-title">
            New action or attribute
          </Title>
          <SegmentedControl
            aria-label="Kind"
            value={kind}
            onChange={setKind}
            data={[
              { value: 'action', label: 'Action' },
              { value: 'attribute', label: 'Attribute' },
            ]}
            w={240}
          />
          <Group align="start" grow>
            <TextInput label="Name" required value={name} onChange={(e) => setName(e.currentTarget.value)} />
            <Textarea label="Description" description="What it does; offered to the model drafting rules" autosize minRows={1} value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
          </Group>
          <Group>
            <WriteButton type="submit" loading={create.isPending || assign.isPending} disabled={!name.trim()}>
              Create {kind}
            </WriteButton>
          </Group>
          {create.error && <ErrorState error={create.error} title="It was not created" />}
        </Stack>
      </form>
    </Paper>
  );
}
