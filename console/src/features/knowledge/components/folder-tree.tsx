// The folder tree (from the knowledge snapshot): pick a folder, create one at the top or inside the
// picked one, rename it, move it (under another folder or to the top level; the API refuses a
// cycle with 400), switch it active or inactive, delete it (the API refuses a folder with content:
// 409 with the count, and the console then offers to delete everything inside).
import { Badge, Box, Button, Group, Modal, Stack, Switch, Text, TextInput, Textarea, UnstyledButton } from '@mantine/core';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Link } from 'wouter';
import { ApiError } from '../../../api/client';
import { useSession } from '../../../app/session';
import { Empty, ErrorState, Loading } from '../../../components/states';
import { WriteButton } from '../../../components/write-button';
import { type SnapshotFolder, useCreateFolder, useDeleteFolder, useMoveFolder, useTree, useUpdateFolder } from '../api';
import { MoveForm, TOP_LEVEL } from './folder-picker';

/** What agents do with an inactive folder, said wherever its state is shown or changed. */
export const INACTIVE_MEANS = 'Agents do not search the articles of an inactive folder or of its subfolders, and knowledge generation does not add to them.';

function FolderItems({ folders, selectedId, depth, offAbove }: { folders: SnapshotFolder[]; selectedId?: string; depth: number; offAbove: boolean }) {
  return (
    <Box component="ul" style={{ listStyle: 'none', margin: 0, paddingLeft: depth === 0 ? 0 : 14 }}>
      {folders.map((folder) => (
        <li key={folder.id}>
          <UnstyledButton
            component={Link}
            href={`/folders/${folder.id}`}
            aria-current={folder.id === selectedId ? 'page' : undefined}
            px={6}
            py={3}
            style={{
              display: 'block',
              borderRadius: 4,
              fontWeight: folder.id === selectedId ? 700 : 400,
              background: folder.id === selectedId ? 'var(--mantine-color-blue-light)' : undefined,
            }}
          >
            <Text size="sm" span>
              {folder.title}
            </Text>{' '}
            <Text size="xs" span c="dimmed">
              ({folder.articles.length})
            </Text>
            {!folder.active && (
              <Badge size="xs" color="gray" ml={6}>
                Inactive
              </Badge>
            )}
            {folder.active && offAbove && (
              <Text size="xs" span c="dimmed" ml={6}>
                off with its parent
              </Text>
            )}
          </UnstyledButton>
          {folder.subfolders.length > 0 && (
            <FolderItems folders={folder.subfolders} selectedId={selectedId} depth={depth + 1} offAbove={offAbove || !folder.active} />
          )}
        </li>
      ))}
    </Box>
  );
}

/** The folders from the top down to the one of that id (empty when it is not in the tree). */
export function pathTo(folders: SnapshotFolder[], id: string): SnapshotFolder[] {
  for (const folder of folders) {
    if (folder.id === id) return [folder];
    const inside = pathTo(folder.subfolders, id);
    if (inside.length) return [folder, ...inside];
  }
  return [];
}

/** Title and description of a folder, for creating and renaming alike. */
function FolderForm({
  initial,
  submitLabel,
  mutation,
  onSubmit,
  children,
}: {
  initial: { title: string; description: string };
  submitLabel: string;
  mutation: { isPending: boolean; error: unknown };
  onSubmit(title: string, description: string): void;
  children?: ReactNode;
}) {
  const [title, setTitle] = useState(initial.title);
  const [description, setDescription] = useState(initial.description);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(title, description);
  };
  return (
    <form onSubmit={submit}>
      <Stack>
        {children}
        <TextInput label="Folder title" required value={title} onChange={(e) => setTitle(e.currentTarget.value)} />
        <Textarea label="Description" value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
        {mutation.error !== null && <ErrorState error={mutation.error} title={`${submitLabel} failed`} />}
        <Button type="submit" loading={mutation.isPending}>
          {submitLabel}
        </Button>
      </Stack>
    </form>
  );
}

function NewFolder({ parent, onDone }: { parent?: SnapshotFolder; onDone(id: string): void }) {
  const create = useCreateFolder();
  return (
    <FolderForm
      initial={{ title: '', description: '' }}
      submitLabel="Create folder"
      mutation={create}
      onSubmit={(title, description) =>
        create.mutate({ title, description, parentFolderId: parent?.id ?? null }, { onSuccess: (folder) => onDone(folder.id) })
      }
    >
      <Text size="sm">{parent ? `Inside “${parent.title}”` : 'At the top level'}</Text>
    </FolderForm>
  );
}

function RenameFolder({ folder, onDone }: { folder: SnapshotFolder; onDone(): void }) {
  const update = useUpdateFolder();
  return (
    <FolderForm
      initial={folder}
      submitLabel="Save folder"
      mutation={update}
      onSubmit={(title, description) => update.mutate({ id: folder.id, title, description, active: folder.active }, { onSuccess: onDone })}
    />
  );
}

/** Moves the folder with its subtree; the picker leaves out cycles, the API still refuses one made meanwhile. */
function MoveFolder({ folder, tree, onDone }: { folder: SnapshotFolder; tree: SnapshotFolder[]; onDone(): void }) {
  const move = useMoveFolder();
  return (
    <MoveForm
      folders={tree}
      description="Under another folder, or to the top level. The folder itself and its subfolders cannot be picked."
      current={folder.parentFolderId}
      moving={folder.id}
      withTopLevel
      submitLabel="Move folder"
      errorTitle="The folder was not moved"
      pending={move.isPending}
      error={move.error}
      onMove={(target, refused) => move.mutate({ id: folder.id, parentFolderId: target === TOP_LEVEL ? null : target }, { onSuccess: onDone, onError: refused })}
    >
      <Text size="sm">“{folder.title}” moves with its subfolders and articles.</Text>
    </MoveForm>
  );
}

/** Switches the folder active or inactive (the update route takes title and description with it). */
function ActiveSwitch({ folder }: { folder: SnapshotFolder }) {
  const { canWrite } = useSession();
  const update = useUpdateFolder();
  const checked = update.isPending ? update.variables.active : folder.active;
  return (
    <Stack gap={4}>
      <Switch
        label="Active"
        description={`${INACTIVE_MEANS}${canWrite ? '' : ' This key is read-only.'}`}
        checked={checked}
        disabled={!canWrite || update.isPending}
        onChange={(event) => update.mutate({ id: folder.id, title: folder.title, description: folder.description, active: event.currentTarget.checked })}
      />
      {update.error && <ErrorState error={update.error} title="The folder's state was not changed" />}
    </Stack>
  );
}

function DeleteFolder({ folder, onDone }: { folder: SnapshotFolder; onDone(): void }) {
  const remove = useDeleteFolder();
  const refused = remove.error instanceof ApiError && remove.error.status === 409;
  return (
    <Stack>
      <Text size="sm">Delete the folder “{folder.title}”?</Text>
      {remove.error && <ErrorState error={remove.error} title="The folder was not deleted" />}
      <Group>
        <Button
          color="red"
          loading={remove.isPending}
          onClick={() =>
            // The dialog loses its folder (and this component) once the refreshed tree arrives, which
            // may be before mutate's own callbacks would run; the promise settles regardless.
            remove
              .mutateAsync({ id: folder.id, cascade: refused })
              .then(onDone)
              .catch(() => undefined)
          }
        >
          {refused ? 'Delete it with everything inside' : 'Delete folder'}
        </Button>
      </Group>
    </Stack>
  );
}

type Dialog = 'new' | 'rename' | 'move' | 'delete' | undefined;

export function FolderTree({ selectedId, onSelect }: { selectedId?: string; onSelect(id: string | undefined): void }) {
  const tree = useTree();
  const [dialog, setDialog] = useState<Dialog>();
  const selected = tree.data && selectedId ? pathTo(tree.data, selectedId).at(-1) : undefined;
  const close = () => setDialog(undefined);

  return (
    <Box component="section" aria-label="Folders">
      <Group gap="md" mb="xs">
        <Text size="sm">
          <Link href="/search">Search knowledge</Link>
        </Text>
        <Text size="sm">
          <Link href="/generate">Generate from sources</Link>
        </Text>
      </Group>
      <Group justify="space-between" mb="xs">
        <Text fw={700}>Folders</Text>
        <WriteButton size="xs" variant="light" onClick={() => setDialog('new')}>
          New folder
        </WriteButton>
      </Group>
      {tree.isPending && <Loading label="Loading folders…" />}
      {tree.error && <ErrorState error={tree.error} title="The folders could not be loaded" />}
      {tree.data && tree.data.length === 0 && <Empty>No folders yet. Create one to hold articles.</Empty>}
      {tree.data && tree.data.length > 0 && (
        <nav aria-label="Folder tree">
          <FolderItems folders={tree.data} selectedId={selectedId} depth={0} offAbove={false} />
        </nav>
      )}
      {selected && (
        <Box component="section" aria-label={`The folder ${selected.title}`} mt="sm">
          <Group gap="xs" mb="sm">
            <WriteButton size="xs" variant="default" onClick={() => setDialog('rename')}>
              Rename folder
            </WriteButton>
            <WriteButton size="xs" variant="default" onClick={() => setDialog('move')}>
              Move to…
            </WriteButton>
            <WriteButton size="xs" variant="default" color="red" onClick={() => setDialog('delete')}>
              Delete folder
            </WriteButton>
          </Group>
          <ActiveSwitch key={selected.id} folder={selected} />
        </Box>
      )}
      <Modal opened={dialog === 'new'} onClose={close} title="New folder">
        <NewFolder
          parent={selected}
          onDone={(id) => {
            close();
            onSelect(id);
          }}
        />
      </Modal>
      <Modal opened={dialog === 'rename' && selected !== undefined} onClose={close} title="Rename folder">
        {selected && <RenameFolder folder={selected} onDone={close} />}
      </Modal>
      <Modal opened={dialog === 'move' && selected !== undefined} onClose={close} title={selected ? `Move “${selected.title}”` : 'Move folder'} size="lg">
        {selected && tree.data && <MoveFolder folder={selected} tree={tree.data} onDone={close} />}
      </Modal>
      <Modal opened={dialog === 'delete' && selected !== undefined} onClose={close} title="Delete folder">
        {selected && (
          <DeleteFolder
            folder={selected}
            onDone={() => {
              close();
              onSelect(undefined);
            }}
          />
        )}
      </Modal>
    </Box>
  );
}
