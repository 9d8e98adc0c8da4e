// The frame around every page: the workspace, the key's access, sign-out and the navigation.
import { AppShell, Badge, Button, Group, NavLink, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { preloadPage } from './pages';
import { useSession } from './session';

const PAGES = [
  { path: '/sources', label: 'Sources' },
  { path: '/connections', label: 'Connections' },
  { path: '/knowledge', label: 'Knowledge' },
  { path: '/conversations', label: 'Conversations' },
  { path: '/try', label: 'Try the agent' },
  { path: '/agents', label: 'Agents' },
  { path: '/rules', label: 'Rules' },
  { path: '/tests', label: 'Tests' },
  { path: '/reply-rules', label: 'Reply rules' },
  { path: '/actions', label: 'Actions' },
  { path: '/tags', label: 'Tags' },
  { path: '/guardrails', label: 'Guardrails' },
  { path: '/analytics', label: 'Analytics' },
  { path: '/webhooks', label: 'Webhooks' },
] as const;

export function Layout({ children }: { children: ReactNode }) {
  const { workspace, canWrite, signOut } = useSession();
  const [location] = useLocation();
  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 200, breakpoint: 'sm' }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between">
          <Group gap="sm">
            <Title order={2} size="h4">
              Parley
            </Title>
            <Text size="sm" aria-label="Workspace">
              {workspace.name}
            </Text>
            {!canWrite && (
              <Badge color="gray" variant="light">
                Read-only key
              </Badge>
            )}
          </Group>
          <Group gap="sm">
            <Text size="xs" c="dimmed">
              Key {workspace.apiKey.prefix}…
            </Text>
            <Button variant="default" size="xs" onClick={signOut}>
              Sign out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" component="nav" aria-label="Pages">
        {PAGES.map((page) => (
          <NavLink
            key={page.path}
            component={Link}
            href={page.path}
            label={page.label}
            active={location.startsWith(page.path)}
            aria-current={location.startsWith(page.path) ? 'page' : undefined}
            onPointerEnter={() => preloadPage(page.path)}
            onFocus={() => preloadPage(page.path)}
          />
        ))}
      </AppShell.Navbar>
      <AppShell.Main>{children}</AppShell.Main>
    </AppShell>
  );
}
