// The confirmation before a delete: what goes, the API's refusal if any, Cancel, and the button that does it.
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { ErrorState } from './states';

interface Props {
  opened: boolean;
  onClose: () => void;
  /** The dialog's title and its button's label ("Delete tag"). */
  action: string;
  children: ReactNode;
  pending: boolean;
  error: unknown;
  /** The title over the API's refusal (a 409 naming what still uses it); "Nothing was deleted" unless given. */
  errorTitle?: string;
  onConfirm: () => void;
}

export function ConfirmDelete({ opened, onClose, action, children, pending, error, errorTitle = 'Nothing was deleted', onConfirm }: Props) {
  return (
    <Modal opened={opened} onClose={onClose} title={action}>
      <Stack>
        <Text size="sm">{children}</Text>
        {error ? <ErrorState error={error} title={errorTitle} /> : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button color="red" loading={pending} onClick={onConfirm}>
            {action}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
