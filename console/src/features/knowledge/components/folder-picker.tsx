// A folder picked by its path in the tree ("Billing / Refunds"), for moving a folder or an article.
// The folders that cannot be picked stay in the list, disabled, saying why: where the thing is now,
// and, when moving a folder, the folder itself and its subfolders (a move there would be a cycle).
import { Button, Select, Stack } from '@mantine/core';
import { type FormEvent, type ReactNode, useState } from 'react';
import { ErrorState } from '../../../components/states';
import type { SnapshotFolder } from '../api';

/** The value of the option "Top level" (folder ids are UUIDs, so it cannot collide with one). */
export const TOP_LEVEL = 'top-level';

interface Option {
  value: string;
  label: string;
  disabled: boolean;
}

/** Every folder depth-first, labelled with its path; `blocked` (and its subtree) and `current` disabled. */
function optionsOf(folders: SnapshotFolder[], parents: string[], blocked: string | undefined, current: string | null, inBlocked: boolean): Option[] {
  return folders.flatMap((folder) => {
    const path = [...parents, folder.title];
    const isBlocked = inBlocked || folder.id === blocked;
    let label = path.join(' / ');
    if (folder.id === blocked) label += ' (the folder being moved)';
    else if (isBlocked) label += ' (inside the folder being moved)';
    else if (folder.id === current) label += ' (where it is now)';
    return [
      { value: folder.id, label, disabled: isBlocked || folder.id === current },
      ...optionsOf(folder.subfolders, path, blocked, current, isBlocked),
    ];
  });
}

interface PickerProps {
  folders: SnapshotFolder[];
  description: string;
  /** The folder the thing is in now (null: the top level). */
  current: string | null;
  /** The folder being moved: neither it nor its subfolders can be picked. */
  moving?: string;
  /** Offer the top level (for a folder; an article is always in a folder). */
  withTopLevel?: boolean;
}

function FolderPicker({
  folders,
  description,
  value,
  onChange,
  current,
  moving,
  withTopLevel = false,
}: PickerProps & { value: string | null; onChange(value: string | null): void }) {
  const options = optionsOf(folders, [], moving, current, false);
  const data = withTopLevel
    ? [{ value: TOP_LEVEL, label: current === null ? 'Top level (where it is now)' : 'Top level', disabled: current === null }, ...options]
    : options;
  return (
    <Select
      label="Move to"
      description={description}
      placeholder="Pick a folder"
      data={data}
      value={value}
      onChange={onChange}
      searchable
      nothingFoundMessage="No folder has that name"
      comboboxProps={{ withinPortal: true }}
    />
  );
}

/**
 * The body of a Move dialog: the picker, the API's refusal and the submit button. `onMove` gets the
 * picked folder (TOP_LEVEL for the top level) and a callback for a refusal, which clears the pick:
 * the tree is refreshed then, and the folder picked may no longer be a place to go.
 */
export function MoveForm({
  submitLabel,
  errorTitle,
  pending,
  error,
  onMove,
  children,
  ...picker
}: PickerProps & {
  submitLabel: string;
  errorTitle: string;
  pending: boolean;
  error: unknown;
  onMove(target: string, refused: () => void): void;
  children?: ReactNode;
}) {
  const [target, setTarget] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (target) onMove(target, () => setTarget(null));
  };
  return (
    <form onSubmit={submit}>
      <Stack>
        {children}
        <FolderPicker {...picker} value={target} onChange={setTarget} />
        {error !== null && <ErrorState error={error} title={errorTitle} />}
        <Button type="submit" disabled={!target} loading={pending}>
          {submitLabel}
        </Button>
      </Stack>
    </form>
  );
}
