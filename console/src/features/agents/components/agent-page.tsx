// One agent: rename, delete, the folders it answers from, its prompts, and its widget keys.
import { Button, Group, Modal, Stack, Tabs, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import { ApiError } from '../../../api/client';
import { ErrorState, Loading } from '../../../components/states';
import { WriteButton } from '../../../components/write-button';
import { type Agent, useAgents, useDeleteAgent, useRenameAgent } from '../api';
import { useTree } from '../../knowledge/api';
import { AgentFolders } from './agent-folders';
import { AgentPrompts } from './agent-prompts';
import { WidgetKeys } from '../../widget-keys/components/widget-keys';
import { BackLink } from '../../../components/back-link';

function Rename({ agent }: { agent: Agent }) {
  const rename = useRenameAgent();
  const [name, setName] = useState(agent.name);
  return (
    <form
      aria-label="Rename the agent"
      onSubmit={(e) => {
        e.preventDefault();
        rename.mutate({ id: agent.id, name });
      }}
    >
      <Group align="end">
        <TextInput label="Name" required value={name} onChange={(e) => setName(e.currentTarget.value)} />
        <WriteButton type="submit" variant="default" loading={rename.isPending} disabled={name.trim() === agent.name}>
          Rename
        </WriteButton>
      </Group>
      {rename.error && <ErrorState error={rename.error} title="The agent was not renamed" />}
    </form>
  );
}

export function AgentPage({ id }: { id: string }) {
  const agents = useAgents();
  // The Folders tab's tree is asked for with the agents, not after them.
  useTree();
  const remove = useDeleteAgent();
  const [confirming, setConfirming] = useState(false);
  const [, navigate] = useLocation();
  if (agents.isPending) return <Loading label="Loading the agent…" />;
  if (agents.error) return <ErrorState error={agents.error} title="The agent could not be loaded" />;
  const agent = agents.data.find((a) => a.id === id);
  if (!agent) return <ErrorState error={new ApiError(404, `agent ${id} not found`)} title="No such agent" />;
  return (
    <Stack>
      <BackLink href="/" label="the agents" />
      <Group gap="md">
        <Link href={`~/console/analytics/${agent.id}`}>Analytics of this agent</Link>
        <Link href={`~/console/tests/${agent.id}`}>Tests of this agent</Link>
      </Group>
      <Group justify="space-between" align="start">
        <Title order={1} size="h2">
          {agent.name}
        </Title>
        <WriteButton color="red" variant="default" onClick={() => setConfirming(true)}>
          Delete agent
        </WriteButton>
      </Group>
      <Rename key={agent.name} agent={agent} />
      <Tabs defaultValue="folders" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="folders">Folders</Tabs.Tab>
          <Tabs.Tab value="prompts">Prompts</Tabs.Tab>
          <Tabs.Tab value="widget">Widget</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="folders" pt="md">
          <AgentFolders agentId={agent.id} />
        </Tabs.Panel>
        <Tabs.Panel value="prompts" pt="md">
          <AgentPrompts agentId={agent.id} />
        </Tabs.Panel>
        <Tabs.Panel value="widget" pt="md">
          <WidgetKeys agentId={agent.id} />
        </Tabs.Panel>
      </Tabs>
      <Modal opened={confirming} onClose={() => setConfirming(false)} title="Delete agent">
        <Stack>
          <Text size="sm">
            Delete “{agent.name}”? It disappears from every route; its prompts and folder assignments stay in the database.
          </Text>
          {remove.error && <ErrorState error={remove.error} title="The agent was not deleted" />}
          <Button color="red" loading={remove.isPending} onClick={() => remove.mutate(agent.id, { onSuccess: () => navigate('/') })}>
            Delete agent
          </Button>
        </Stack>
      </Modal>
    </Stack>
  );
}
