// The controls of a list with a checkbox per row: select every row shown, select none, and how many
// are picked (announced as it changes).
import { Button, Group, Text } from '@mantine/core';

export function SelectionBar({ shown, picked, total, onAll, onNone }: { shown: number; picked: number; total?: number; onAll(): void; onNone(): void }) {
  return (
    <Group gap="xs">
      <Button size="xs" variant="default" disabled={shown === 0} onClick={onAll}>
        Select all shown
      </Button>
      <Button size="xs" variant="default" disabled={picked === 0} onClick={onNone}>
        Select none
      </Button>
      <Text size="sm" aria-live="polite">
        {total === undefined ? `${picked} picked` : `${picked} of ${total} picked`}
      </Text>
    </Group>
  );
}
