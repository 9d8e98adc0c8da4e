// Providers (Mantine, TanStack Query, the session), the sign-in guard and the router. Every page is
// lazy-loaded, so the first load carries only this frame and the sign-in form.
import { createTheme, type CSSVariablesResolver, darken, luminance, MantineProvider } from '@mantine/core';
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
const WebhooksPage = page('webhooks');
const TestsPage = page('tests');

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

/** WCAG's contrast ratio of two colours. */
const contrast = (a: string, b: string) => {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
};

/**
 * The text of a "light" variant (an alert's title, a light button, the active navigation link) is
 * shade 9 on shade 1, and on shade 2 when hovered: blue is 4.0:1 hovered, teal 4.3:1 at rest, and
 * green, orange, lime and yellow are under 4.5:1 even at rest. So each colour's light text is shade 9
 * darkened until it meets 4.5:1 on the hover shade (gray, dark, pink and grape already do).
 */
function lightTextColors(colors: Record<string, readonly string[]>): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const [name, shades] of Object.entries(colors)) {
    let text = shades[9]!;
    for (let step = 0.05; contrast(text, shades[2]!) < 4.6 && step < 1; step += 0.05) text = darken(shades[9]!, step);
    variables[`--mantine-color-${name}-light-color`] = text;
  }
  return variables;
}

/**
 * Mantine's dimmed text (gray 6) is below WCAG's 4.5:1 on white; gray 7 meets it. So is its error
 * red (red 6, 3.3:1, on a field's message and text); red 9 meets it, also on a filled fieldset.
 */
const resolver: CSSVariablesResolver = (theme) => ({
  variables: {},
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)', '--mantine-color-error': 'var(--mantine-color-red-9)', ...lightTextColors(theme.colors) },
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
          <Route path="/tests" nest>
            <TestsPage />
          </Route>
          <Route path="/webhooks" nest>
            <WebhooksPage />
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
