// The folder tree (from the knowledge snapshot): pick a folder, create one at the top or inside the
// picked one, rename it, delete it (the API refuses a folder with content: 409 with the count, and
// the console then offers to delete everything inside).
import { Box, Button, Group, Modal, Stack, Text, TextInput, Textarea, UnstyledButton } from '@mantine/core';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Link } from 'wouter';
import { ApiError } from '../../../api/client';
import { Empty, ErrorState, Loading } from '../../../components/states';
import { WriteButton } from '../../../components/write-button';
import { type SnapshotFolder, useCreateFolder, useDeleteFolder, useTree, useUpdateFolder } from '../api';

function FolderItems({ folders, selectedId, depth }: { folders: SnapshotFolder[]; selectedId?: string; depth: number }) {
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
          </UnstyledButton>
          {folder.subfolders.length > 0 && <FolderItems folders={folder.subfolders} selectedId={selectedId} depth={depth + 1} />}
        </li>
      ))}
    </Box>
  );
}

/** The folder of that id anywhere in the tree. */
export function findFolder(folders: SnapshotFolder[], id: string): SnapshotFolder | undefined {
  for (const folder of folders) {
    if (folder.id === id) return folder;
    const inside = findFolder(folder.subfolders, id);
    if (inside) return inside;
  }
  return undefined;
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

type Dialog = 'new' | 'rename' | 'delete' | undefined;

export function FolderTree({ selectedId, onSelect }: { selectedId?: string; onSelect(id: string | undefined): void }) {
  const tree = useTree();
  const [dialog, setDialog] = useState<Dialog>();
  const selected = tree.data && selectedId ? findFolder(tree.data, selectedId) : undefined;
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
          <FolderItems folders={tree.data} selectedId={selectedId} depth={0} />
        </nav>
      )}
      {selected && (
        <Group gap="xs" mt="sm">
          <WriteButton size="xs" variant="default" onClick={() => setDialog('rename')}>
            Rename folder
          </WriteButton>
          <WriteButton size="xs" variant="default" color="red" onClick={() => setDialog('delete')}>
            Delete folder
          </WriteButton>
        </Group>
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
