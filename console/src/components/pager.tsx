// Keyset paging controls: newer and older pages of a list ordered newest first.
import { Button, Group } from '@mantine/core';

export function Pager({ newer, older }: { newer?: () => void; older?: () => void }) {
  return (
    <Group>
      <Button variant="default" size="xs" disabled={!newer} onClick={newer}>
        Newer
      </Button>
      <Button variant="default" size="xs" disabled={!older} onClick={older}>
        Older
      </Button>
    </Group>
  );
}
