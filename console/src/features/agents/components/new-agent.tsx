// A new agent by name (the Agents page and Try the agent).
import { Group, TextInput } from '@mantine/core';
import { useState } from 'react';
import { ErrorState } from '../../../components/states';
import { WriteButton } from '../../../components/write-button';
import { useCreateAgent } from '../api';

export function NewAgent({ onCreated }: { onCreated(id: string): void }) {
  const create = useCreateAgent();
  const [name, setName] = useState('');
  return (
    <form
      aria-label="New agent"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate(name, { onSuccess: (agent) => onCreated(agent.id) });
      }}
    >
      <Group align="end">
        <TextInput label="New agent name" required value={name} onChange={(e) => setName(e.currentTarget.value)} />
        <WriteButton type="submit" loading={create.isPending}>
          Create agent
        </WriteButton>
      </Group>
      {create.error && <ErrorState error={create.error} title="The agent was not created" />}
    </form>
  );
}
