// The folders an agent answers from: every folder of the tree with a checkbox; saving sends the
// changes as junctions (ADD and DELETE in one transaction). An agent sees an assigned folder and
// everything below it.
import { Box, Checkbox, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Empty, ErrorState, Loading } from '../../../components/states';
import { WriteButton } from '../../../components/write-button';
import { type SnapshotFolder, useTree } from '../../knowledge/api';
import { useAssignFolders } from '../api';

/** The tree as a list in reading order, with each folder's depth. */
function flatten(folders: SnapshotFolder[], depth = 0): { folder: SnapshotFolder; depth: number }[] {
  return folders.flatMap((folder) => [{ folder, depth }, ...flatten(folder.subfolders, depth + 1)]);
}

export function AgentFolders({ agentId }: { agentId: string }) {
  const tree = useTree();
  const assign = useAssignFolders();
  const [changes, setChanges] = useState<Map<string, boolean>>(new Map());
  if (tree.isPending) return <Loading label="Loading folders…" />;
  if (tree.error) return <ErrorState error={tree.error} title="The folders could not be loaded" />;
  const rows = flatten(tree.data);
  if (rows.length === 0) return <Empty>No folders yet: create them on the Knowledge page.</Empty>;
  const assigned = (folder: SnapshotFolder) => changes.get(folder.id) ?? folder.botIds.includes(agentId);
  const save = () =>
    assign.mutate(
      [...changes].map(([folderId, on]) => ({ folderId, botId: agentId, action: on ? ('ADD' as const) : ('DELETE' as const) })),
      { onSuccess: () => setChanges(new Map()) },
    );
  return (
    <Stack gap="xs">
      <Box component="fieldset" style={{ border: 0, padding: 0, margin: 0 }}>
        <Text component="legend" size="sm" mb="xs">
          The agent answers from the checked folders and everything inside them.
        </Text>
        {rows.map(({ folder, depth }) => (
          <Checkbox
            key={folder.id}
            ml={depth * 20}
            mb={4}
            label={folder.title}
            checked={assigned(folder)}
            onChange={(e) => setChanges(new Map(changes).set(folder.id, e.currentTarget.checked))}
          />
        ))}
      </Box>
      {assign.error && <ErrorState error={assign.error} title="The folders were not saved" />}
      <Group>
        <WriteButton onClick={save} disabled={changes.size === 0} loading={assign.isPending}>
          Save folders
        </WriteButton>
        {assign.isSuccess && changes.size === 0 && (
          <Text size="sm" role="status">
            Folders saved.
          </Text>
        )}
      </Group>
    </Stack>
  );
}
