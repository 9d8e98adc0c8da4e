// The guardrails in run order, each enabled or not in place, and the test panel over all of them.
import { Button, Stack, Switch, Table, Text, Title } from '@mantine/core';
import { Link } from 'wouter';
import { useSession } from '../../../app/session';
import { Empty, ErrorState, Loading } from '../../../components/states';
import { TableHead } from '../../../components/table-head';
import { useAgents } from '../../agents/api';
import { ACTION_LABELS, type Guardrail, kindLabel, STAGE_LABELS, useGuardrails, useUpdateGuardrail } from '../api';
import { TestPanel } from './test-panel';

function EnabledSwitch({ guardrail }: { guardrail: Guardrail }) {
  const { canWrite } = useSession();
  const update = useUpdateGuardrail();
  return (
    <Switch
      aria-label={`${guardrail.name} enabled`}
      checked={guardrail.isEnabled}
      disabled={!canWrite || update.isPending}
      title={canWrite ? undefined : 'This key is read-only'}
      error={update.error?.message}
      onChange={(e) => update.mutate({ id: guardrail.id, body: { isEnabled: e.currentTarget.checked } })}
    />
  );
}

export function GuardrailList() {
  const guardrails = useGuardrails();
  const agents = useAgents();
  const { canWrite } = useSession();
  const agentName = (id: string) => agents.data?.find((a) => a.id === id)?.name ?? id;
  return (
    <Stack>
      <Title order={1} size="h2">
        Guardrails
      </Title>
      <Text size="sm">Guardrails check the customer&apos;s message or the agent&apos;s answer, in this order, for the agents they are assigned to.</Text>
      {canWrite && (
        <Button component={Link} href="/new" w="fit-content">
          New guardrail
        </Button>
      )}
      {guardrails.isPending && <Loading label="Loading guardrails…" />}
      {guardrails.error && <ErrorState error={guardrails.error} title="The guardrails could not be loaded" />}
      {guardrails.data && guardrails.data.length === 0 && <Empty>No guardrails yet.</Empty>}
      {guardrails.data && guardrails.data.length > 0 && (
        <Table striped aria-label="Guardrails">
          <TableHead columns={['Guardrail', 'Kind', 'Checks', 'When it matches', 'Agents', 'Enabled']} />
          <Table.Tbody>
            {guardrails.data.map((g) => (
              <Table.Tr key={g.id}>
                <Table.Td>
                  <Link href={`/${g.id}`}>{g.name}</Link>
                </Table.Td>
                <Table.Td>{kindLabel(g.kind)}</Table.Td>
                <Table.Td>{STAGE_LABELS[g.stage]}</Table.Td>
                <Table.Td>{ACTION_LABELS[g.action]}</Table.Td>
                <Table.Td>{g.botIds.length ? g.botIds.map(agentName).join(', ') : 'None'}</Table.Td>
                <Table.Td>
                  <EnabledSwitch guardrail={g} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <TestPanel />
    </Stack>
  );
}
