// One provider's connection: connected or not, the account the provider reported, the API base,
// the stored fields (secrets as ********), and what can be done with it: connect or edit, test,
// disconnect (after a confirmation) and import its resources.
import { Alert, Anchor, Badge, Button, Group, Modal, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useId, useState } from 'react';
import { Link } from 'wouter';
import { ErrorState, Loading } from '../../../components/states';
import { WriteButton } from '../../../components/write-button';
import { useConnection, useDisconnect, useTestConnection } from '../api';
import { type ProviderSpec } from '../providers';
import { ConnectForm } from './connect-form';

const when = (iso: string | undefined) => (iso ? new Date(iso).toLocaleString() : '');

function Disconnect({ spec, onDone }: { spec: ProviderSpec; onDone(): void }) {
  const disconnect = useDisconnect(spec.id);
  const [asking, setAsking] = useState(false);
  return (
    <>
      <WriteButton variant="default" color="red" onClick={() => setAsking(true)}>
        Disconnect
      </WriteButton>
      <Modal opened={asking} onClose={() => setAsking(false)} title={`Disconnect ${spec.label}?`}>
        <Stack gap="sm">
          <Text size="sm">
            Parley forgets the credentials. Sources already imported from {spec.label} stay, but refreshing them fails until {spec.label} is connected
            again.
          </Text>
          {disconnect.error && <ErrorState error={disconnect.error} title={`${spec.label} was not disconnected`} />}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setAsking(false)}>
              Cancel
            </Button>
            <WriteButton color="red" loading={disconnect.isPending} onClick={() => disconnect.mutate(undefined, { onSuccess: () => (setAsking(false), onDone()) })}>
              Disconnect {spec.label}
            </WriteButton>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

function TestResult({ spec, result }: { spec: ProviderSpec; result: { ok: boolean; account: string | null; error: string | null } }) {
  return result.ok ? (
    <Alert color="teal" role="status" title="The connection works">
      {spec.label} accepted the credentials{result.account ? ` as ${result.account}` : ''}.
    </Alert>
  ) : (
    <Alert color="red" role="alert" title={`${spec.label} refused the connection`}>
      {result.error}
    </Alert>
  );
}

export function ProviderCard({ spec }: { spec: ProviderSpec }) {
  const connection = useConnection(spec.id);
  const test = useTestConnection(spec.id);
  const [editing, setEditing] = useState(false);
  const titleId = useId();
  const data = connection.data;
  const rows: [string, string][] = data?.connected
    ? [
        ['Account', data.account ?? ''],
        ['Base URL', data.baseUrl ?? ''],
        ...Object.entries(data.credentials ?? {}).map(([field, value]): [string, string] => [spec.fields.find((f) => f.name === field)?.label ?? field, value]),
        ['Connected since', when(data.createdAt)],
        ...(data.updatedAt !== data.createdAt ? [['Updated', when(data.updatedAt)] as [string, string]] : []),
      ]
    : [];
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={titleId}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4" id={titleId}>
            {spec.label}
          </Title>
          {data && <Badge color={data.connected ? 'teal.9' : 'gray'}>{data.connected ? 'Connected' : 'Not connected'}</Badge>}
        </Group>
        {connection.isPending && <Loading label={`Loading the ${spec.label} connection…`} />}
        {connection.error && <ErrorState error={connection.error} title={`The ${spec.label} connection could not be read`} />}
        {data && !data.connected && <Text size="sm">Import {spec.resources} from {spec.label} as sources.</Text>}
        {rows.length > 0 && (
          <Table aria-label={`${spec.label} connection`} variant="vertical" withTableBorder={false}>
            <Table.Tbody>
              {rows.map(([label, value]) => (
                <Table.Tr key={label}>
                  <Table.Th w={170}>{label}</Table.Th>
                  <Table.Td style={{ wordBreak: 'break-all' }}>{value}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        {test.data && <TestResult spec={spec} result={test.data} />}
        {test.error && <ErrorState error={test.error} title="The connection was not tested" />}
        {data && (
          <Group gap="xs">
            <WriteButton variant={data.connected ? 'default' : 'filled'} onClick={() => setEditing(true)}>
              {data.connected ? 'Edit connection' : `Connect ${spec.label}`}
            </WriteButton>
            {data.connected && (
              <>
                <WriteButton variant="default" loading={test.isPending} onClick={() => test.mutate()}>
                  Test connection
                </WriteButton>
                <Disconnect spec={spec} onDone={() => test.reset()} />
                <Anchor component={Link} href={`/${spec.id}`} size="sm" ml="sm">
                  {spec.discovers ? 'Discover and import resources' : 'Import files'}
                </Anchor>
              </>
            )}
          </Group>
        )}
      </Stack>
      {data && editing && <ConnectForm spec={spec} connection={data} opened onClose={() => (setEditing(false), test.reset())} />}
    </Paper>
  );
}
