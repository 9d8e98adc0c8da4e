// The Tags page: every tag group the workspace sees with its tags (Parley's system groups first,
// read-only), and a new group.
import { Card, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useSession } from '../../../app/session';
import { Empty, ErrorState, Loading } from '../../../components/states';
import { useAllTags, useCreateGroup, useTagGroups } from '../api';
import { EMPTY_GROUP, GroupForm } from './group-form';
import { GroupCard } from './group-card';

function NewGroup() {
  const create = useCreateGroup();
  const [round, setRound] = useState(0);
  return (
    <Card withBorder component="section" aria-label="New tag group">
      <Title order={2} size="h4" mb="xs">
        New tag group
      </Title>
      <GroupForm
        key={round}
        initial={EMPTY_GROUP}
        submitLabel="Create group"
        pending={create.isPending}
        error={create.error}
        onSubmit={(body) => create.mutate(body, { onSuccess: () => setRound(round + 1) })}
      />
    </Card>
  );
}

export function TagsPage() {
  const groups = useTagGroups();
  const tags = useAllTags();
  const { canWrite } = useSession();
  const error = groups.error ?? tags.error;
  return (
    <Stack>
      <Title order={1} size="h2">
        Tags
      </Title>
      <Text size="sm">
        The agent tags each conversation with tags of these groups: input groups from the customer&apos;s message, outcome groups after its answer. Rule flows apply
        tags too.
      </Text>
      {(groups.isPending || tags.isPending) && !error && <Loading label="Loading the tag groups…" />}
      {error && <ErrorState error={error} title="The tag groups could not be loaded" />}
      {groups.data && tags.data && (
        <>
          {groups.data.every((g) => g.isSystem) && <Empty>No tag group of this workspace yet{canWrite ? ': create one below' : ''}.</Empty>}
          {groups.data.map((group) => (
            <GroupCard key={group.id} group={group} tags={tags.data.filter((t) => t.tagGroupId === group.id)} />
          ))}
        </>
      )}
      {canWrite && <NewGroup />}
    </Stack>
  );
}
