// Each page's code, fetched once (Vite splits it into its own chunks). app.tsx renders a page at
// once when its code is here, and fetches it ahead: for the page the URL opens while a key is
// checked (the one kept in the tab at startup, or the one just entered to sign in), and when a link
// to the page (in the navigation, a reply's Refine with AI) is pointed at or focused.
import type { ComponentType } from 'react';

type PageModule = { default: ComponentType };

const IMPORTERS = {
  knowledge: () => import('../features/knowledge/routes'),
  conversations: () => import('../features/conversations/routes'),
  try: () => import('../features/try/routes'),
  agents: () => import('../features/agents/routes'),
  actions: () => import('../features/actions/routes'),
  rules: () => import('../features/rules/routes'),
  sources: () => import('../features/sources/routes'),
  refine: () => import('../features/refine/routes'),
  'reply-rules': () => import('../features/reply-rules/routes'),
  tags: () => import('../features/tags/routes'),
  guardrails: () => import('../features/guardrails/routes'),
  connections: () => import('../features/connections/routes'),
  analytics: () => import('../features/analytics/routes'),
  webhooks: () => import('../features/webhooks/routes'),
  tests: () => import('../features/testing/routes'),
} satisfies Record<string, () => Promise<PageModule>>;

export type PageName = keyof typeof IMPORTERS;

const loading = new Map<PageName, Promise<PageModule>>();
const loaded = new Map<PageName, ComponentType>();

/** Fetches a page's code (once); resolves with its module. */
export function loadPage(name: PageName): Promise<PageModule> {
  let promise = loading.get(name);
  if (!promise) {
    promise = IMPORTERS[name]().then((module) => {
      loaded.set(name, module.default);
      return module;
    });
    // A failed fetch (the server restarted with new assets) is tried again on the next use.
    promise.catch(() => loading.delete(name));
    loading.set(name, promise);
  }
  return promise;
}

/** The page's component when its code is already here. */
export function loadedPage(name: PageName): ComponentType | undefined {
  return loaded.get(name);
}

/** The page a path inside the console opens (`/knowledge/folders/...` → `knowledge`); `/` opens Knowledge. */
export function pageOf(path: string): PageName {
  const first = path.split('/').find(Boolean);
  return first !== undefined && first in IMPORTERS ? (first as PageName) : 'knowledge';
}

/** Starts fetching the code of the page at `path` (no-op when it is here or on its way). */
export function preloadPage(path: string): void {
  loadPage(pageOf(path)).catch(() => undefined);
}

/** Starts fetching the code of the page the browser's URL opens (`/console/...`). */
export function preloadCurrentPage(): void {
  preloadPage(window.location.pathname.replace(/^\/console/, ''));
}
