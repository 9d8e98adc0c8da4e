import { inTransaction, type WorkspaceContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { CONNECTORS, type DiscoveredResources, ProviderError, type ProviderName } from '../../ingest/providers/index.js';
import { isConnected, notConnected, openProviderSession, providerErrorAnswer } from '../providers/index.js';
import { findByExternalIds, importedExternalIds, insertSources, updateRegistered } from './sources.repository.js';
import type { RegisterBody } from './sources.schemas.js';

/**
 * Provider discovery and registration (the specification's provider workflow): list what the
 * connection can read, register the chosen resources as source records, then ingest their ids with
 * the ingest route. Registration queues nothing.
 */

/** GET /v2/documents/public/resources/{provider}: every page of the provider's listing, minus what was imported. */
export async function discoverResources(ctx: WorkspaceContext, provider: ProviderName) {
  const connector = CONNECTORS[provider];
  if (!connector.discover) {
    throw new AppError(
      'bad_request',
      `${provider} has no resource discovery; register files by their ${provider} file id with POST /v2/documents/public/resources/${provider}`,
    );
  }
  const session = await openProviderSession(ctx, provider);
  if (!session) throw notConnected(provider);
  let found: DiscoveredResources;
  try {
    found = await connector.discover(session);
  } catch (error) {
    if (error instanceof ProviderError) throw providerErrorAnswer(error, 'list its resources');
    throw error;
  }
  const ids =
    found.provider === 'notion'
      ? found.resources.map((r) => r.externalId)
      : found.provider === 'zendesk'
        ? found.resources.flatMap((c) => c.children.flatMap((s) => s.children.map((a) => a.externalId)))
        : found.resources.flatMap((space) => space.pages.map((p) => p.externalId));
  const imported = await importedExternalIds(ctx.db, ctx.workspaceId, provider, ids);
  const keep = (externalId: string) => !imported.has(externalId);
  switch (found.provider) {
    case 'notion':
      return found.resources.filter((r) => keep(r.externalId));
    case 'zendesk':
      // A section (and a category) whose every article was imported is left out with them.
      return found.resources
        .map((category) => ({
          ...category,
          children: category.children
            .map((section) => ({ ...section, children: section.children.filter((a) => keep(a.externalId)) }))
            .filter((section) => section.children.length > 0),
        }))
        .filter((category) => category.children.length > 0);
    case 'confluence':
      return found.resources.map((space) => ({ ...space, pages: space.pages.filter((p) => keep(p.externalId)) })).filter((space) => space.pages.length > 0);
  }
}

const NOTION_ID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/**
 * A provider's resource id as Parley stores it, or why it is not one: Notion ids dashed and
 * lower-case (as its API answers them), Zendesk and Confluence numeric, Drive file ids.
 */
export function providerExternalId(provider: ProviderName, value: string): string | { problem: string } {
  switch (provider) {
    case 'notion': {
      const hex = value.match(/[0-9a-f]{32}$/i)?.[0] ?? (NOTION_ID.test(value) ? value.replace(/-/g, '') : null);
      if (!hex) return { problem: 'not a Notion page or database id (32 hexadecimal digits)' };
      const h = hex.toLowerCase();
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
    }
    case 'zendesk':
    case 'confluence':
      return /^\d{1,20}$/.test(value) ? value : { problem: `not a ${provider === 'zendesk' ? 'Zendesk article' : 'Confluence page'} id (digits)` };
    case 'googledrive':
      return /^[A-Za-z0-9_-]{10,200}$/.test(value) ? value : { problem: 'not a Google Drive file id' };
  }
}

const DEFAULT_OBJECT: Record<ProviderName, string | null> = { notion: 'page', zendesk: 'article', confluence: 'page', googledrive: null };

/** POST /v2/documents/public/resources/{provider}: creates or updates source records by external id. */
export async function registerResources(ctx: WorkspaceContext, provider: ProviderName, body: RegisterBody) {
  if (!(await isConnected(ctx, provider))) throw notConnected(provider);
  // The last entry of an external id given twice wins.
  const byId = new Map<string, { index: number; values: { title: string; originalUrl: string; mimeType: string; type: string | null; storageUrl: string | null } }>();
  body.resources.forEach((resource, index) => {
    const externalId = providerExternalId(provider, resource.externalId);
    if (typeof externalId !== 'string') throw new AppError('bad_request', `body.resources.${index}.externalId: ${externalId.problem}`);
    const type = resource.object ?? resource.type ?? (provider === 'googledrive' ? resource.mimeType : DEFAULT_OBJECT[provider]);
    if (provider === 'notion' && type !== 'page' && type !== 'database') {
      throw new AppError('bad_request', `body.resources.${index}.object: a notion resource is a page or a database`);
    }
    byId.set(externalId, {
      index,
      values: { title: resource.title, originalUrl: resource.originalUrl, mimeType: resource.mimeType, type, storageUrl: resource.storageUrl ?? null },
    });
  });
  return inTransaction(ctx, async ({ db: tx }) => {
    const now = ctx.clock.now();
    const externalIds = [...byId.keys()];
    const existing = new Map((await findByExternalIds(tx, ctx.workspaceId, provider, externalIds)).map((r) => [r.externalId, r]));
    const fresh = externalIds.filter((id) => !existing.has(id));
    const inserted = await insertSources(
      tx,
      ctx.workspaceId,
      fresh.map((externalId) => ({ source: provider, externalId, ...byId.get(externalId)!.values, misc: { depth: 0 }, createdAt: now, updatedAt: now })),
    );
    // An id a concurrent registration inserted first is updated like any existing one.
    const insertedIds = new Set(inserted.map((r) => r.externalId));
    for (const row of await findByExternalIds(tx, ctx.workspaceId, provider, fresh.filter((id) => !insertedIds.has(id)))) existing.set(row.externalId, row);
    const order = (externalId: string) => byId.get(externalId)!.index;
    const updated = [...existing].sort(([a], [b]) => order(a) - order(b)).map(([externalId, row]) => ({ id: row.id, values: byId.get(externalId)!.values }));
    await updateRegistered(tx, ctx.workspaceId, updated, now);
    return {
      addedDocumentIds: inserted.sort((a, b) => order(a.externalId) - order(b.externalId)).map((r) => r.id),
      updatedDocumentIds: updated.map((r) => r.id),
    };
  });
}
