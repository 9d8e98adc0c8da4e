// The tags of one group: name and description, and for a workspace group edit and delete each.
import { Group, Table } from '@mantine/core';
import { useState } from 'react';
import { ConfirmDelete } from '../../../components/confirm-delete';
import { Empty } from '../../../components/states';
import { TableHead } from '../../../components/table-head';
import { WriteButton } from '../../../components/write-button';
import { type Tag, useDeleteTag, useUpdateTag } from '../api';
import { TagForm } from './tag-form';

function TagRow({ tag, readOnly }: { tag: Tag; readOnly: boolean }) {
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const update = useUpdateTag();
  const remove = useDeleteTag();
  if (editing) {
    return (
      <Table.Tr>
        <Table.Td colSpan={3}>
          <TagForm
            initial={{ tagName: tag.tagName, tagDescription: tag.tagDescription }}
            submitLabel="Save tag"
            pending={update.isPending}
            error={update.error}
            onSubmit={(body) => update.mutate({ id: tag.id, body }, { onSuccess: () => setEditing(false) })}
            onCancel={() => setEditing(false)}
          />
        </Table.Td>
      </Table.Tr>
    );
  }
  return (
    <Table.Tr>
      <Table.Td>{tag.tagName}</Table.Td>
      <Table.Td>{tag.tagDescription}</Table.Td>
      {!readOnly && (
        <Table.Td>
          <Group gap="xs">
            <WriteButton size="xs" variant="light" aria-label={`Edit tag ${tag.tagName}`} onClick={() => setEditing(true)}>
              Edit
            </WriteButton>
            <WriteButton size="xs" variant="subtle" color="red" aria-label={`Delete tag ${tag.tagName}`} onClick={() => setDeleting(true)}>
              Delete
            </WriteButton>
          </Group>
          <ConfirmDelete
            opened={deleting}
            onClose={() => setDeleting(false)}
            action="Delete tag"
            pending={remove.isPending}
            error={remove.error}
            onConfirm={() => remove.mutate(tag.id, { onSuccess: () => setDeleting(false) })}
          >
            Delete the tag “{tag.tagName}”? Conversations lose it, and rule flows that name it no longer apply it.
          </ConfirmDelete>
        </Table.Td>
      )}
    </Table.Tr>
  );
}

export function TagTable({ title, tags, readOnly }: { title: string; tags: Tag[]; readOnly: boolean }) {
  if (tags.length === 0) return <Empty>No tags in this group yet.</Empty>;
  return (
    <Table withTableBorder aria-label={`Tags of ${title}`}>
      <TableHead columns={readOnly ? ['Tag', 'Description'] : ['Tag', 'Description', 'Actions']} />
      <Table.Tbody>
        {tags.map((tag) => (
          <TagRow key={tag.id} tag={tag} readOnly={readOnly} />
        ))}
      </Table.Tbody>
    </Table>
  );
}

