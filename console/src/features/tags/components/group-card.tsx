// One tag group: what it is, its tags, and for a workspace group edit, delete and add a tag.
// A system group (Parley's) is shown and marked read-only, with no buttons.
import { Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { ConfirmDelete } from '../../../components/confirm-delete';
import { WriteButton } from '../../../components/write-button';
import { type Tag, type TagGroup, useCreateTag, useDeleteGroup, useUpdateGroup } from '../api';
import { GroupForm } from './group-form';
import { TagForm } from './tag-form';
import { TagTable } from './tag-table';

function Flags({ group }: { group: TagGroup }) {
  return (
    <Group gap="xs">
      {group.isSystem && (
        <Badge color="gray" variant="filled">
          System group, read-only
        </Badge>
      )}
      {group.mandatory && <Badge variant="light">Mandatory</Badge>}
      {group.multiselect && <Badge variant="light">Several tags</Badge>}
      <Badge variant="outline" color="dark">
        {group.isOutputTagGroup ? 'Outcome (after the answer)' : 'Input (from the message)'}
      </Badge>
    </Group>
  );
}

function AddTag({ groupId }: { groupId: string }) {
  const create = useCreateTag();
  // A new key empties the form once a tag is added.
  const [round, setRound] = useState(0);
  return (
    <TagForm
      key={round}
      initial={{ tagName: '', tagDescription: '' }}
      submitLabel="Add tag"
      pending={create.isPending}
      error={create.error}
      onSubmit={(body) => create.mutate({ groupId, body }, { onSuccess: () => setRound(round + 1) })}
    />
  );
}

export function GroupCard({ group, tags }: { group: TagGroup; tags: Tag[] }) {
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const update = useUpdateGroup();
  const remove = useDeleteGroup();
  return (
    <Card withBorder component="section" aria-label={`Tag group ${group.title}`}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Group gap="sm">
            <Title order={2} size="h4">
              {group.title}
            </Title>
            <Flags group={group} />
          </Group>
          {!group.isSystem && !editing && (
            <Group gap="xs">
              <WriteButton size="xs" variant="light" onClick={() => setEditing(true)}>
                Edit group
              </WriteButton>
              <WriteButton size="xs" variant="subtle" color="red" onClick={() => setDeleting(true)}>
                Delete group
              </WriteButton>
            </Group>
          )}
        </Group>
        {editing ? (
          <GroupForm
            initial={group}
            submitLabel="Save group"
            pending={update.isPending}
            error={update.error}
            onSubmit={(body) => update.mutate({ id: group.id, body }, { onSuccess: () => setEditing(false) })}
            onCancel={() => setEditing(false)}
          />
        ) : (
          <>
            {group.description && <Text size="sm">{group.description}</Text>}
            {group.prompt && (
              <Text size="sm" c="dimmed">
                How the agent chooses: {group.prompt}
              </Text>
            )}
          </>
        )}
        <TagTable title={group.title} tags={tags} readOnly={group.isSystem} />
        {!group.isSystem && <AddTag groupId={group.id} />}
      </Stack>
      <ConfirmDelete
        opened={deleting}
        onClose={() => setDeleting(false)}
        action="Delete group"
        pending={remove.isPending}
        error={remove.error}
        onConfirm={() => remove.mutate(group.id, { onSuccess: () => setDeleting(false) })}
      >
        Delete the group “{group.title}” and its {tags.length === 1 ? 'tag' : `${tags.length} tags`}?
      </ConfirmDelete>
    </Card>
  );
}
