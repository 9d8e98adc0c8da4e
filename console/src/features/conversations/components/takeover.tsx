// Human takeover: since the agent handed the conversation over, the team holds it (the agent stays
// silent on the customer's messages) until someone releases it to the agent (docs/widget.md).
import { Alert, Group, Stack, Text } from '@mantine/core';
import { ErrorState } from '../../../components/states';
import { WriteButton } from '../../../components/write-button';
import { type Conversation, useRelease } from '../api';

export function Takeover({ conversation }: { conversation: Conversation }) {
  const release = useRelease();
  const heldSince = conversation.humanTakeoverAt;
  return (
    <Stack gap="xs">
      {heldSince && (
        <Alert color="orange" title="The team holds this conversation" role="status">
          <Stack gap="xs">
            <Text size="sm">
              Since {new Date(heldSince).toLocaleString()} the agent does not answer the customer&apos;s messages: a person answers them here. Released, the
              agent answers the customer&apos;s next message.
            </Text>
            <Group>
              <WriteButton size="xs" loading={release.isPending} onClick={() => release.mutate(conversation.id)}>
                Release to the agent
              </WriteButton>
            </Group>
          </Stack>
        </Alert>
      )}
      {release.error && <ErrorState error={release.error} title="The conversation was not released" />}
      {release.isSuccess && !heldSince && (
        <Text size="sm" role="status">
          Released: the agent answers the customer&apos;s next message.
        </Text>
      )}
    </Stack>
  );
}
