// A value to copy (an embed snippet, a secret shown once): the text as code, and a button that copies it.
import { Button, Code, CopyButton, Group, Stack } from '@mantine/core';

interface Props {
  /** What is copied, shown as code. */
  value: string;
  /** The button's label ("Copy snippet"); it says "Copied" for two seconds after a click. */
  label: string;
  /** The code block's accessible name ("Embed snippet of Shop"). */
  name: string;
}

export function CopyValue({ value, label, name }: Props) {
  return (
    <Stack gap={4}>
      <Code block aria-label={name} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
        {value}
      </Code>
      <Group>
        <CopyButton value={value} timeout={2000}>
          {({ copied, copy }) => (
            <Button size="xs" variant={copied ? 'filled' : 'light'} onClick={copy}>
              {copied ? 'Copied' : label}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}
