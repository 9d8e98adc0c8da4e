// The publish gate's refusal (docs/testing.md): a 409 whose message starts "the drafts break" names
// the test cases a draft breaks; Publish anyway sends the publish again with `force: true`.
import { Alert, Button, Text } from '@mantine/core';
import { ApiError } from '../api/client';

/**
 * A 409 of the test gate, told from the publish's other 409s (a stale draft, unaccepted warnings)
 * by the start of its message: the gate's error carries no other mark on the wire.
 */
export function isGateRefusal(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 409 && error.message.startsWith('the drafts break');
}

/** The gate's message and Publish anyway; nothing when the error is not the gate's. */
export function GateRefusal({ error, pending, onForce }: { error: unknown; pending: boolean; onForce: () => void }) {
  if (!isGateRefusal(error)) return null;
  return (
    <Alert color="red" title="Not published: the drafts break test cases" role="alert">
      <Text size="sm">{error.message}</Text>
      <Button mt="xs" size="xs" onClick={onForce} loading={pending}>
        Publish anyway
      </Button>
    </Alert>
  );
}
