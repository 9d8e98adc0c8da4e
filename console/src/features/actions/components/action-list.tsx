// Actions and attributes of the workspace or of one agent (the list route's `botId`), and a new one.
import { Badge, Select, Stack, Table, Text, Title } from '@mantine/core';
import { Link, useLocation, useSearch } from 'wouter';
import { Empty, ErrorState, Loading } from '../../../components/states';
import { TableHead } from '../../../components/table-head';
import { useAgents } from '../../agents/api';
import { type Tool, useTools } from '../api';
import { NewAction } from './new-action';

function ToolTable({ label, tools, agentName }: { label: string; tools: Tool[]; agentName: Map<string, string> }) {
  if (tools.length === 0) return <Empty>No {label.toLowerCase()} here yet.</Empty>;
  return (
    <Table striped highlightOnHover aria-label={label}>
      <TableHead columns={['Name', 'Inputs', 'Outputs', 'Agents', 'Source']} />
      <Table.Tbody>
        {tools.map((tool) => (
          <Table.Tr key={tool.id}>
            <Table.Td>
              <Link href={`/${tool.id}`}>{tool.name}</Link>
              {tool.description && (
                <Text size="xs" c="dimmed">
                  {tool.description}
                </Text>
              )}
            </Table.Td>
            <Table.Td>{tool.inputFields.map((f) => f.name).join(', ') || '—'}</Table.Td>
            <Table.Td>{tool.outputFields.map((f) => f.name).join(', ') || '—'}</Table.Td>
            <Table.Td>{tool.botIds.map((id) => agentName.get(id) ?? id).join(', ') || 'None'}</Table.Td>
            <Table.Td>
              <Badge variant="light" color="gray">
                {tool.source}
              </Badge>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

export function ActionList() {
  // The picked agent lives in the address (?agent=), so a reload or a shared link keeps it.
  const search = new URLSearchParams(useSearch());
  const botId = search.get('agent');
  const [, navigate] = useLocation();
  const agents = useAgents();
  const tools = useTools(botId);
  const agentName = new Map((agents.data ?? []).map((a) => [a.id, a.name]));
  return (
    <Stack>
      <Title order={1} size="h2">
        Actions and attributes
      </Title>
      <Text size="sm">
        An action is called from an intent rule&apos;s flow; an attribute runs for every conversation of the agents it is assigned to. Both make their HTTP calls
        through external API call steps.
      </Text>
      <Select
        label="Agent"
        description="Only the actions and attributes assigned to this agent"
        placeholder="Every agent"
        data={(agents.data ?? []).map((a) => ({ value: a.id, label: a.name }))}
        value={botId}
        onChange={(id) => navigate(id ? `/?agent=${id}` : '/')}
        clearable
        searchable
        w={320}
      />
      {agents.error && <ErrorState error={agents.error} title="The agents could not be loaded" />}
      <NewAction agentId={botId} onCreated={(id) => navigate(`/${id}`)} />
      {tools.isPending && <Loading label="Loading actions and attributes…" />}
      {tools.error && <ErrorState error={tools.error} title="The actions could not be loaded" />}
      {tools.data && (
        <>
          <Title order={2} size="h3">
            Actions
          </Title>
          <ToolTable label="Actions" tools={tools.data.filter((t) => !t.alwaysGet)} agentName={agentName} />
          <Title order={2} size="h3">
            Attributes
          </Title>
          <ToolTable label="Attributes" tools={tools.data.filter((t) => t.alwaysGet)} agentName={agentName} />
        </>
      )}
    </Stack>
  );
}
