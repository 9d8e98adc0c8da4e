// An agent's widget keys (its Widget tab): each key with its origins, visitor rate limit and date,
// the snippet that embeds the widget with it, a link to the demo page, and delete; a new key.
import { Anchor, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useSession } from '../../../app/session';
import { ConfirmDelete } from '../../../components/confirm-delete';
import { CopyValue } from '../../../components/copy-value';
import { Empty, ErrorState, Loading } from '../../../components/states';
import { WriteButton } from '../../../components/write-button';
import { demoUrl, embedSnippet, useDeleteWidgetKey, useWidgetKeys, type WidgetKey } from '../api';
import { WidgetKeyForm } from './widget-key-form';

function KeyCard({ widgetKey }: { widgetKey: WidgetKey }) {
  const [deleting, setDeleting] = useState(false);
  const remove = useDeleteWidgetKey();
  return (
    <Card withBorder component="section" aria-label={`Widget key ${widgetKey.name}`}>
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={2} size="h4">
            {widgetKey.name}
          </Title>
          <WriteButton size="xs" variant="subtle" color="red" onClick={() => setDeleting(true)}>
            Delete key
          </WriteButton>
        </Group>
        <Text size="sm">Key: {widgetKey.key}</Text>
        <Text size="sm">Allowed origins: {widgetKey.allowedOrigins.join(', ')}</Text>
        <Text size="sm">
          Visitor rate limit: {widgetKey.visitorRateLimit === null ? "the server's default" : `${widgetKey.visitorRateLimit} requests per window`}
        </Text>
        <Text size="sm" c="dimmed">
          Created {new Date(widgetKey.createdAt).toLocaleString()}
        </Text>
        <Text size="sm" fw={600}>
          Embed snippet: paste it into the pages of the allowed origins
        </Text>
        <CopyValue value={embedSnippet(widgetKey.key)} label="Copy snippet" name={`Embed snippet of ${widgetKey.name}`} />
        <Anchor href={demoUrl(widgetKey.key)} target="_blank" size="sm" w="fit-content">
          Open the demo page with this key
        </Anchor>
      </Stack>
      <ConfirmDelete
        opened={deleting}
        onClose={() => setDeleting(false)}
        action="Delete widget key"
        pending={remove.isPending}
        error={remove.error}
        onConfirm={() => remove.mutate(widgetKey.id, { onSuccess: () => setDeleting(false) })}
      >
        Delete the widget key “{widgetKey.name}”? Pages that embed it stop working at once; visitors&apos; conversations stay.
      </ConfirmDelete>
    </Card>
  );
}

export function WidgetKeys({ agentId }: { agentId: string }) {
  const keys = useWidgetKeys(agentId);
  const { canWrite } = useSession();
  return (
    <Stack>
      <Text size="sm">
        A widget key lets web pages of its allowed origins open chats with this agent through the chat widget. It is not a secret: it sits in every page that
        embeds the widget, and works only from those origins and only for what a visitor does.
      </Text>
      {keys.isPending && <Loading label="Loading the widget keys…" />}
      {keys.error && <ErrorState error={keys.error} title="The widget keys could not be loaded" />}
      {keys.data && keys.data.length === 0 && <Empty>No widget key for this agent yet{canWrite ? ': create one below' : ''}.</Empty>}
      {keys.data?.map((key) => (
        <KeyCard key={key.id} widgetKey={key} />
      ))}
      {canWrite && (
        <Card withBorder component="section" aria-label="New widget key">
          <Title order={2} size="h4" mb="xs">
            New widget key
          </Title>
          <WidgetKeyForm agentId={agentId} />
        </Card>
      )}
    </Stack>
  );
}
