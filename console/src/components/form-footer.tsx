// The end of a form: the API's messages no field took, the button that saves (disabled for a
// read-only key), and Cancel when the form edits something shown otherwise.
import { Alert, Button, Group } from '@mantine/core';
import { WriteButton } from './write-button';

interface Props {
  /** The messages to show above the buttons (field-errors.ts `unplaced`). */
  above: string[];
  /** The alert's title over them. */
  title?: string;
  submitLabel: string;
  pending: boolean;
  onSubmit: () => void;
  onCancel?: () => void;
}

export function FormFooter({ above, title = 'Not saved', submitLabel, pending, onSubmit, onCancel }: Props) {
  return (
    <>
      {above.length > 0 && (
        <Alert color="red" title={title} role="alert">
          {above.join('; ')}
        </Alert>
      )}
      <Group>
        <WriteButton loading={pending} onClick={onSubmit}>
          {submitLabel}
        </WriteButton>
        {onCancel && (
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
        )}
      </Group>
    </>
  );
}
