// The agents of the workspace and a new one.
import { Stack, Table, Title } from '@mantine/core';
import { Link, useLocation } from 'wouter';
import { Empty, ErrorState, Loading } from '../../../components/states';
import { TableHead } from '../../../components/table-head';
import { useAgents } from '../api';
import { NewAgent } from './new-agent';

export function AgentList() {
  const agents = useAgents();
  const [, navigate] = useLocation();
  return (
    <Stack>
      <Title order={1} size="h2">
        Agents
      </Title>
      <NewAgent onCreated={(id) => navigate(`/${id}`)} />
      {agents.isPending && <Loading label="Loading agents…" />}
      {agents.error && <ErrorState error={agents.error} title="The agents could not be loaded" />}
      {agents.data && agents.data.length === 0 && <Empty>No agents yet.</Empty>}
      {agents.data && agents.data.length > 0 && (
        <Table striped highlightOnHover aria-label="Agents">
          <TableHead columns={['Agent', 'Created']} />
          <Table.Tbody>
            {agents.data.map((agent) => (
              <Table.Tr key={agent.id}>
                <Table.Td>
                  <Link href={`/${agent.id}`}>{agent.name}</Link>
                </Table.Td>
                <Table.Td>{new Date(agent.createdAt).toLocaleString()}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
