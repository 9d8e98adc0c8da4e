// The three states every page shows besides its data: loading, empty and error (with the API's
// message; a 403 says the key is read-only).
import { Alert, Center, Loader, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { ApiError } from '../api/client';

export function Loading({ label }: { label: string }) {
  return (
    <Center py="lg" role="status" aria-live="polite">
      <Loader size="sm" mr="sm" aria-hidden />
      <Text size="sm">{label}</Text>
    </Center>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return (
    <Text c="dimmed" size="sm" py="md">
      {children}
    </Text>
  );
}

/** What went wrong, in the API's words. */
export function errorText(error: unknown): string {
  if (error instanceof ApiError && error.forbidden) return `This key is read-only: ${error.message}`;
  if (error instanceof Error) return error.message;
  return String(error);
}

export function ErrorState({ error, title = 'Something went wrong' }: { error: unknown; title?: string }) {
  const forbidden = error instanceof ApiError && error.forbidden;
  return (
    <Alert color="red" title={forbidden ? 'Not allowed' : title} role="alert">
      {errorText(error)}
    </Alert>
  );
}
