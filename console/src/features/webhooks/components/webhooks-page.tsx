// The Webhooks page: the workspace's endpoints (URL, events, enabled or why Parley switched it off)
// and a new endpoint, whose signing secret is shown once, right after it is created.
import { Alert, Badge, Button, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'wouter';
import { useSession } from '../../../app/session';
import { CopyValue } from '../../../components/copy-value';
import { Empty, ErrorState, Loading } from '../../../components/states';
import { TableHead } from '../../../components/table-head';
import { type CreatedWebhook, useCreateWebhook, useWebhooks, type Webhook } from '../api';
import { EMPTY_WEBHOOK, WebhookForm } from './webhook-form';

/** Enabled, or Disabled with the reason Parley switched it off (none when a client did). */
export function EndpointState({ webhook }: { webhook: Webhook }) {
  if (webhook.enabled) return <Badge color="teal" variant="light">
        Enabled
      </Badge>;
  return (
    <Stack gap={2}>
      <Badge color="gray" variant="filled">
        Disabled
      </Badge>
      {webhook.disabledReason && <Text size="xs">{webhook.disabledReason}</Text>}
    </Stack>
  );
}

/** A signing secret the API answers once: in the answer of the create, or of a rotation. */
export function NewSecret({ created, onDone }: { created: CreatedWebhook; onDone: () => void }) {
  const until = created.previousSecretExpiresAt ? new Date(created.previousSecretExpiresAt) : null;
  return (
    <Alert color="yellow" title="Signing secret: shown only now" role="status">
      <Stack gap="xs">
        <Text size="sm">
          Copy the secret of {created.url} into your receiver now to verify the signature of each request (Standard Webhooks). Parley keeps it sealed and never
          shows it again: to change it, rotate it on the endpoint&apos;s page.
          {until && ` The previous secret also signs each request until ${until.toLocaleString()}.`}
        </Text>
        <CopyValue value={created.secret} label="Copy secret" name="Secret" />
        <Group>
          <Button size="xs" variant="default" onClick={onDone}>
            I have copied it
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}

function NewEndpoint() {
  const create = useCreateWebhook();
  const [round, setRound] = useState(0);
  return (
    <Card withBorder component="section" aria-label="New endpoint">
      <Title order={2} size="h4" mb="xs">
        New endpoint
      </Title>
      <Stack>
        {create.data && <NewSecret created={create.data} onDone={() => create.reset()} />}
        <WebhookForm
          key={round}
          initial={EMPTY_WEBHOOK}
          submitLabel="Create endpoint"
          pending={create.isPending}
          error={create.error}
          onSubmit={(body) => create.mutate(body, { onSuccess: () => setRound(round + 1) })}
        />
      </Stack>
    </Card>
  );
}

export function WebhooksPage() {
  const webhooks = useWebhooks();
  const { canWrite } = useSession();
  return (
    <Stack>
      <Title order={1} size="h2">
        Webhooks
      </Title>
      <Text size="sm">
        Parley calls these endpoints when something happens (a conversation is escalated, an article published...), each request signed as the Standard
        Webhooks specification says.
      </Text>
      {webhooks.isPending && <Loading label="Loading the endpoints…" />}
      {webhooks.error && <ErrorState error={webhooks.error} title="The endpoints could not be loaded" />}
      {webhooks.data && webhooks.data.length === 0 && <Empty>No endpoint yet{canWrite ? ': create one below' : ''}.</Empty>}
      {webhooks.data && webhooks.data.length > 0 && (
        <Table striped aria-label="Endpoints">
          <TableHead columns={['Endpoint', 'Events', 'State', 'Description']} />
          <Table.Tbody>
            {webhooks.data.map((w) => (
              <Table.Tr key={w.id}>
                <Table.Td style={{ wordBreak: 'break-all' }}>
                  <Link href={`/${w.id}`}>{w.url}</Link>
                </Table.Td>
                <Table.Td>{w.events.join(', ')}</Table.Td>
                <Table.Td>
                  <EndpointState webhook={w} />
                </Table.Td>
                <Table.Td>{w.description}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {canWrite && <NewEndpoint />}
    </Stack>
  );
}
