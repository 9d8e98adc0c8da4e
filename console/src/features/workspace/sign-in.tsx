// The sign-in form: a workspace API key (`parley_...`), checked against the API before it is kept.
import { Button, Container, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { preloadCurrentPage } from '../../app/pages';
import { useSessionState } from '../../app/session';
import { ErrorState } from '../../components/states';

export function SignIn() {
  const { signIn, restoreError } = useSessionState();
  const [key, setKey] = useState('');
  const [error, setError] = useState<unknown>(restoreError);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    // The page to show is fetched while the key is checked, so it does not suspend once signed in.
    preloadCurrentPage();
    try {
      await signIn(key.trim());
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Container size={460} py={80} component="main">
      <Title order={1} mb="xs">
        Parley console
      </Title>
      <Text c="dimmed" mb="lg">
        Sign in with a workspace API key. It is kept in this browser tab only, until you sign out or close the tab.
      </Text>
      <Paper withBorder p="lg" radius="md">
        <form onSubmit={submit}>
          <Stack>
            <PasswordInput
              label="API key"
              placeholder="parley_..."
              autoComplete="off"
              required
              value={key}
              onChange={(event) => setKey(event.currentTarget.value)}
            />
            {error !== undefined && <ErrorState error={error} title="Sign-in failed" />}
            <Button type="submit" loading={busy}>
              Sign in
            </Button>
          </Stack>
        </form>
      </Paper>
    </Container>
  );
}
