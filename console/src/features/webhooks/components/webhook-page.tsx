// One webhook endpoint: what it receives and its state, edit (URL, events, description, enabled),
// delete, a test message with its outcome, and its deliveries.
import { Alert, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useLocation } from 'wouter';
import { BackLink } from '../../../components/back-link';
import { ConfirmDelete } from '../../../components/confirm-delete';
import { ErrorState, Loading } from '../../../components/states';
import { WriteButton } from '../../../components/write-button';
import { type Delivery, useDeleteWebhook, useTestWebhook, useUpdateWebhook, useWebhook, type Webhook } from '../api';
import { Deliveries, outcomeOf } from './deliveries';
import { WebhookForm } from './webhook-form';
import { EndpointState } from './webhooks-page';

/** The test delivery's outcome: delivered with the receiver's status, or why not. */
function TestOutcome({ delivery }: { delivery: Delivery }) {
  const delivered = delivery.status === 'delivered';
  return (
    <Alert color={delivered ? 'teal' : 'red'} title={delivered ? 'The test message was delivered' : 'The test message was not delivered'} role="status">
      {outcomeOf(delivery)}
    </Alert>
  );
}

function Details({ webhook }: { webhook: Webhook }) {
  const [editing, setEditing] = useState(false);
  const update = useUpdateWebhook();
  if (editing) {
    return (
      <WebhookForm
        initial={{ url: webhook.url, events: webhook.events, description: webhook.description, enabled: webhook.enabled }}
        submitLabel="Save endpoint"
        pending={update.isPending}
        error={update.error}
        onSubmit={(body) => update.mutate({ id: webhook.id, body }, { onSuccess: () => setEditing(false) })}
        onCancel={() => setEditing(false)}
      />
    );
  }
  return (
    <Stack gap="xs" component="section" aria-label="Endpoint">
      <EndpointState webhook={webhook} />
      <Text size="sm">Events: {webhook.events.join(', ')}</Text>
      {webhook.description && <Text size="sm">Description: {webhook.description}</Text>}
      {webhook.failingSince && <Text size="sm">Failing since {new Date(webhook.failingSince).toLocaleString()}</Text>}
      <Text size="sm" c="dimmed">
        Created {new Date(webhook.createdAt).toLocaleString()}
      </Text>
      <Group>
        <WriteButton variant="light" onClick={() => setEditing(true)}>
          Edit endpoint
        </WriteButton>
      </Group>
    </Stack>
  );
}

export function WebhookPage({ id }: { id: string }) {
  const webhook = useWebhook(id);
  const test = useTestWebhook();
  const remove = useDeleteWebhook();
  const [deleting, setDeleting] = useState(false);
  const [, navigate] = useLocation();
  if (webhook.isPending) return <Loading label="Loading the endpoint…" />;
  if (webhook.error) return <ErrorState error={webhook.error} title="The endpoint could not be loaded" />;
  const w = webhook.data;
  return (
    <Stack>
      <BackLink href="/" label="the webhooks" />
      <Group justify="space-between" align="start">
        <Title order={1} size="h2" style={{ wordBreak: 'break-all' }}>
          {w.url}
        </Title>
        <Group gap="xs">
          <WriteButton variant="default" loading={test.isPending} onClick={() => test.mutate(w.id)}>
            Send test
          </WriteButton>
          <WriteButton color="red" variant="default" onClick={() => setDeleting(true)}>
            Delete endpoint
          </WriteButton>
        </Group>
      </Group>
      {test.data && <TestOutcome delivery={test.data} />}
      {test.error && <ErrorState error={test.error} title="The test message was not sent" />}
      <Details key={w.updatedAt} webhook={w} />
      <Deliveries webhookId={w.id} />
      <ConfirmDelete
        opened={deleting}
        onClose={() => setDeleting(false)}
        action="Delete endpoint"
        pending={remove.isPending}
        error={remove.error}
        onConfirm={() => remove.mutate(w.id, { onSuccess: () => navigate('/') })}
      >
        Delete the endpoint {w.url} and its deliveries? Retries still due are dropped.
      </ConfirmDelete>
    </Stack>
  );
}
