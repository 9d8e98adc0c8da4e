// One webhook endpoint: what it receives and its state, edit (URL, events, description, enabled),
// delete, its signing secret rotated, a test message with its outcome, and its deliveries.
import { Alert, Button, Group, Modal, NumberInput, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useLocation } from 'wouter';
import { BackLink } from '../../../components/back-link';
import { ConfirmDelete } from '../../../components/confirm-delete';
import { ErrorState, Loading } from '../../../components/states';
import { WriteButton } from '../../../components/write-button';
import { type Delivery, useDeleteWebhook, useRotateSecret, useTestWebhook, useUpdateWebhook, useWebhook, type Webhook } from '../api';
import { Deliveries, outcomeOf } from './deliveries';
import { WebhookForm } from './webhook-form';
import { EndpointState, NewSecret } from './webhooks-page';

/** The test delivery's outcome: delivered with the receiver's status, or why not. */
function TestOutcome({ delivery }: { delivery: Delivery }) {
  const delivered = delivery.status === 'delivered';
  return (
    <Alert color={delivered ? 'teal' : 'red'} title={delivered ? 'The test message was delivered' : 'The test message was not delivered'} role="status">
      {outcomeOf(delivery)}
    </Alert>
  );
}

/** A new signing secret; the current one keeps signing for the hours chosen, so receivers can switch without refusing a message. */
function RotateSecret({ webhook, opened, onClose }: { webhook: Webhook; opened: boolean; onClose: () => void }) {
  const rotate = useRotateSecret();
  const [hours, setHours] = useState<number | string>(24);
  const close = () => {
    rotate.reset();
    onClose();
  };
  return (
    <>
      <Modal opened={opened && !rotate.data} onClose={close} title="Rotate the signing secret">
        <Stack>
          <Text size="sm">
            Parley makes a new secret and shows it once. Meanwhile the current secret keeps signing each request beside the new one, so your receiver accepts
            either until you have deployed the new secret. Use 0 when the current secret leaked.
          </Text>
          <NumberInput label="Keep the current secret signing for (hours)" min={0} max={168} allowDecimal={false} value={hours} onChange={setHours} />
          {rotate.error ? <ErrorState error={rotate.error} title="The secret was not rotated" /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button loading={rotate.isPending} onClick={() => rotate.mutate({ id: webhook.id, keepPreviousHours: typeof hours === 'number' ? hours : Number(hours) })}>
              Rotate secret
            </Button>
          </Group>
        </Stack>
      </Modal>
      {rotate.data && <NewSecret created={rotate.data} onDone={close} />}
    </>
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
      {webhook.previousSecretExpiresAt && Date.parse(webhook.previousSecretExpiresAt) > Date.now() && (
        <Text size="sm">The previous signing secret also signs until {new Date(webhook.previousSecretExpiresAt).toLocaleString()}</Text>
      )}
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
  const [rotating, setRotating] = useState(false);
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
          <WriteButton variant="default" onClick={() => setRotating(true)}>
            Rotate secret
          </WriteButton>
          <WriteButton color="red" variant="default" onClick={() => setDeleting(true)}>
            Delete endpoint
          </WriteButton>
        </Group>
      </Group>
      {test.data && <TestOutcome delivery={test.data} />}
      {test.error && <ErrorState error={test.error} title="The test message was not sent" />}
      <RotateSecret webhook={w} opened={rotating} onClose={() => setRotating(false)} />
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
