// The agents an action or attribute is assigned to: a checkbox per agent, saved as ADD and DELETE.
import { Checkbox, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Empty, ErrorState, Loading } from '../../../components/states';
import { WriteButton } from '../../../components/write-button';
import { useAgents } from '../../agents/api';
import { type ToolWithSteps, useAssignTool } from '../api';

export function ActionAgents({ tool }: { tool: ToolWithSteps }) {
  const agents = useAgents();
  const assign = useAssignTool();
  const [picked, setPicked] = useState(() => new Set(tool.botIds));
  if (agents.isPending) return <Loading label="Loading agents…" />;
  if (agents.error) return <ErrorState error={agents.error} title="The agents could not be loaded" />;
  if (agents.data.length === 0) return <Empty>No agents yet: create one on the Agents page.</Empty>;
  const add = [...picked].filter((id) => !tool.botIds.includes(id));
  const remove = tool.botIds.filter((id) => !picked.has(id));
  return (
    <Stack gap="sm">
      <Text size="sm">
        {tool.alwaysGet ? 'The attribute runs for every conversation of the checked agents.' : 'The action is listed for the checked agents (the list’s agent filter).'}
      </Text>
      <Checkbox.Group label="Assigned to" value={[...picked]} onChange={(ids) => setPicked(new Set(ids))}>
        <Stack gap={4} mt="xs">
          {agents.data.map((agent) => (
            <Checkbox key={agent.id} value={agent.id} label={agent.name} />
          ))}
        </Stack>
      </Checkbox.Group>
      <Group>
        <WriteButton variant="default" loading={assign.isPending} disabled={add.length + remove.length === 0} onClick={() => assign.mutate({ id: tool.id, add, remove })}>
          Save agents
        </WriteButton>
      </Group>
      {assign.error && <ErrorState error={assign.error} title="The agents were not saved" />}
    </Stack>
  );
}
