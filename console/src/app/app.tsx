// Providers (Mantine, TanStack Query, the session), the sign-in guard and the router. Every page is
// lazy-loaded, so the first load carries only this frame and the sign-in form.
import { createTheme, type CSSVariablesResolver, MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ComponentType, createElement, lazy, Suspense } from 'react';
import { Redirect, Route, Router, Switch } from 'wouter';
import { ApiError } from '../api/client';
import { Loading } from '../components/states';
import { SignIn } from '../features/workspace/sign-in';
import { Layout } from './layout';
import { loadedPage, loadPage, type PageName, preloadCurrentPage } from './pages';
import { hasKeptKey, SessionProvider, useSessionState } from './session';

/**
 * A page rendered at once when its code is here (pages.ts fetches it ahead), else lazily: a page
 * that suspends shows "Loading the page…", and React keeps a shown Suspense fallback on screen for
 * at least 300 ms (its throttle), which on a first load cost more than all of the page's API calls.
 */
function page(name: PageName): ComponentType {
  const Lazy = lazy(() => loadPage(name));
  return function Page() {
    return createElement(loadedPage(name) ?? Lazy);
  };
}

const KnowledgePage = page('knowledge');
const ConversationsPage = page('conversations');
const TryAgentPage = page('try');
const AgentsPage = page('agents');
const ActionsPage = page('actions');
const RulesPage = page('rules');
const SourcesPage = page('sources');
const RefinePage = page('refine');
const ReplyRulesPage = page('reply-rules');
const TagsPage = page('tags');
const GuardrailsPage = page('guardrails');
const ConnectionsPage = page('connections');
const AnalyticsPage = page('analytics');

// A key kept in this tab: the page the URL opens is fetched while the key is verified.
if (hasKeptKey()) preloadCurrentPage();

/**
 * Shade 8 of each colour under white text meets WCAG's 4.5:1 contrast (the default 6 does not).
 * A modal's close button is an icon: it gets its name here (a plain object, so the first load does
 * not carry the Modal component).
 */
const theme = createTheme({
  primaryShade: 8,
  components: { Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } } },
});

/**
 * Mantine's dimmed text (gray 6) is below WCAG's 4.5:1 on white; gray 7 meets it. So is its error
 * red (red 6, 3.3:1, on a field's message and text); red 9 meets it, also on a filled fieldset.
 */
const resolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)', '--mantine-color-error': 'var(--mantine-color-red-9)' },
  dark: {},
});

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A 4xx will answer the same again; other failures get one more try.
      retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 1,
      refetchOnWindowFocus: false,
      staleTime: 10_000,
    },
  },
});

function Guarded() {
  const { status } = useSessionState();
  if (status === 'restoring') return <Loading label="Signing in…" />;
  if (status === 'signed-out') return <SignIn />;
  return (
    <Layout>
      <Suspense fallback={<Loading label="Loading the page…" />}>
        <Switch>
          <Route path="/knowledge" nest>
            <KnowledgePage />
          </Route>
          <Route path="/conversations" nest>
            <ConversationsPage />
          </Route>
          <Route path="/sources" nest>
            <SourcesPage />
          </Route>
          <Route path="/agents" nest>
            <AgentsPage />
          </Route>
          <Route path="/reply-rules" nest>
            <ReplyRulesPage />
          </Route>
          <Route path="/tags" nest>
            <TagsPage />
          </Route>
          <Route path="/guardrails" nest>
            <GuardrailsPage />
          </Route>
          <Route path="/actions" nest>
            <ActionsPage />
          </Route>
          <Route path="/connections" nest>
            <ConnectionsPage />
          </Route>
          <Route path="/rules" nest>
            <RulesPage />
          </Route>
          <Route path="/analytics" nest>
            <AnalyticsPage />
          </Route>
          <Route path="/try">
            <TryAgentPage />
          </Route>
          <Route path="/refine/:conversationId/:eventId">
            <RefinePage />
          </Route>
          <Route>
            <Redirect to="/knowledge" replace />
          </Route>
        </Switch>
      </Suspense>
    </Layout>
  );
}

export function App() {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={resolver}>
      <Notifications />
      <QueryClientProvider client={queryClient}>
        <SessionProvider>
          <Router base="/console">
            <Guarded />
          </Router>
        </SessionProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
