import { emit, inTransaction, type WorkspaceContext } from '../../context.js';
import type { Db } from '../../db/database.js';
import { AppError } from '../../http/errors.js';
import { normalizeUrl } from '../../ingest/crawl/url.js';
import {
  CONNECTORS,
  confluenceBase,
  DRIVE_API,
  NOTION_API,
  parseServiceAccount,
  PROVIDER_LABELS,
  ProviderError,
  providerFetch,
  type ProviderName,
  type ProviderSession,
  zendeskBase,
} from '../../ingest/providers/index.js';
import { MASK, type SecretBox } from '../../secrets.js';
import {
  connectionSyncIntervals as connectionSyncIntervalRows,
  deleteConnection as deleteConnectionRow,
  findConnection,
  setConnectionSyncInterval,
  type ProviderConnectionRow,
  resealConnection,
  unscopedConnections,
  upsertConnection,
} from './providers.repository.js';
import type { ConnectionBody } from './providers.schemas.js';

type Field = keyof ConnectionBody;

/** The credential fields each provider takes; `secret` ones are sealed and answered as `********`. */
const FIELDS: Record<ProviderName, { allowed: Field[]; secret: Field[] }> = {
  notion: { allowed: ['token', 'baseUrl'], secret: ['token'] },
  zendesk: { allowed: ['subdomain', 'email', 'apiToken', 'baseUrl'], secret: ['apiToken'] },
  confluence: { allowed: ['baseUrl', 'email', 'apiToken'], secret: ['apiToken'] },
  googledrive: { allowed: ['accessToken', 'serviceAccountJson', 'baseUrl'], secret: ['accessToken', 'serviceAccountJson'] },
};

/** The fields a provider cannot do without: one of each inner list. */
const REQUIRED: Record<ProviderName, Field[][]> = {
  notion: [['token']],
  zendesk: [['subdomain', 'baseUrl'], ['email'], ['apiToken']],
  confluence: [['baseUrl'], ['email'], ['apiToken']],
  googledrive: [['accessToken', 'serviceAccountJson']],
};

function apiBase(provider: ProviderName, credentials: Record<string, string>, baseUrl: string | undefined): string {
  switch (provider) {
    case 'notion':
      return baseUrl ?? NOTION_API;
    case 'zendesk':
      return zendeskBase(credentials, baseUrl);
    case 'confluence':
      return confluenceBase(baseUrl!);
    case 'googledrive':
      return baseUrl ?? DRIVE_API;
  }
}

function checkBaseUrl(value: string): string {
  const normalized = normalizeUrl(value);
  if (!normalized) throw new AppError('bad_request', 'body.baseUrl: must be an http(s) URL');
  const url = new URL(normalized);
  if (url.username || url.password) throw new AppError('bad_request', 'body.baseUrl: URLs with credentials are not accepted; give them as fields');
  if (url.search || url.hash) throw new AppError('bad_request', 'body.baseUrl: give the API base without a query or fragment');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/**
 * The credentials a PUT stores: the provider's own fields (another provider's are refused, naming
 * them), `********` standing for the secret already stored, and every required field present.
 */
function credentialsOf(provider: ProviderName, body: ConnectionBody, stored: Record<string, string> | null): { credentials: Record<string, string>; baseUrl: string | undefined } {
  const { allowed, secret } = FIELDS[provider];
  for (const field of Object.keys(body) as Field[]) {
    if (body[field] !== undefined && !allowed.includes(field)) {
      throw new AppError('bad_request', `body.${field}: not a ${provider} credential (${provider} takes ${allowed.join(', ')})`);
    }
  }
  const credentials: Record<string, string> = {};
  for (const field of allowed) {
    const value = body[field];
    if (value === undefined || field === 'baseUrl') continue;
    if (value === MASK) {
      const kept = secret.includes(field) ? stored?.[field] : undefined;
      if (kept === undefined) throw new AppError('bad_request', `body.${field}: ${MASK} keeps a stored secret, and ${provider} has none stored; give the value`);
      credentials[field] = kept;
    } else {
      credentials[field] = value;
    }
  }
  const baseUrl = body.baseUrl === undefined ? undefined : checkBaseUrl(body.baseUrl);
  for (const options of REQUIRED[provider]) {
    const present = options.some((field) => (field === 'baseUrl' ? baseUrl !== undefined : credentials[field] !== undefined));
    if (!present) throw new AppError('bad_request', `body.${options[0]}: required for ${provider}${options.length > 1 ? ` (or give ${options.slice(1).join(' or ')})` : ''}`);
  }
  if (provider === 'googledrive') {
    if (credentials.accessToken && credentials.serviceAccountJson) {
      throw new AppError('bad_request', 'body.serviceAccountJson: give accessToken or serviceAccountJson, not both');
    }
    if (credentials.serviceAccountJson) {
      const account = parseServiceAccount(credentials.serviceAccountJson);
      if (typeof account === 'string') throw new AppError('bad_request', `body.serviceAccountJson: the service account key ${account}`);
    }
  }
  return { credentials, baseUrl };
}

function openCredentials(ctx: Pick<WorkspaceContext, 'secrets'>, row: ProviderConnectionRow): Record<string, string> {
  return JSON.parse(ctx.secrets.open(row.sealedCredentials)) as Record<string, string>;
}

function session(ctx: WorkspaceContext, provider: ProviderName, baseUrl: string, credentials: Record<string, string>): ProviderSession {
  const http = providerFetch({
    provider,
    fetch: ctx.outbound.fetch,
    maxRetries: ctx.config.ingest.providerMaxRetries,
    maxRetryWaitMs: ctx.config.ingest.providerMaxRetryWaitMs,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  });
  return { provider, baseUrl, credentials, http };
}

/**
 * The workspace's open connection to a provider, for discovery and the fetchers; null when the
 * provider is not connected. The credentials live in memory for the call only.
 */
export async function openProviderSession(ctx: WorkspaceContext, provider: ProviderName): Promise<ProviderSession | null> {
  const row = await findConnection(ctx.db, ctx.workspaceId, provider);
  return row ? session(ctx, provider, row.baseUrl, openCredentials(ctx, row)) : null;
}

/** The 4xx or 502 a provider's refusal means to the caller of a route (connect, discover). */
export function providerErrorAnswer(error: ProviderError, doing: string): AppError {
  const label = PROVIDER_LABELS[error.provider];
  if (error.failure === 'unavailable' || error.failure === 'rate_limited') return new AppError('bad_gateway', `${label} could not ${doing} now: ${error.message}`);
  return new AppError('bad_request', `${error.provider}: ${label} refused to ${doing}: ${error.message}`);
}

/** Whether the workspace has connected the provider. */
export async function isConnected(ctx: WorkspaceContext, provider: ProviderName): Promise<boolean> {
  return (await findConnection(ctx.db, ctx.workspaceId, provider)) !== undefined;
}

/** The 400 of a route that needs a connection the workspace does not have. */
export function notConnected(provider: ProviderName): AppError {
  return new AppError('bad_request', `${provider} is not connected in this workspace; connect it with PUT /v2/providers/${provider}/connection/public`);
}

/** What a connection answers: the stored non-secret fields, secrets masked, never a secret. */
function present(provider: ProviderName, row: ProviderConnectionRow | undefined, credentials: Record<string, string> | null) {
  if (!row) return { provider, connected: false };
  const { secret } = FIELDS[provider];
  const shown = Object.fromEntries(Object.entries(credentials ?? {}).map(([field, value]) => [field, secret.includes(field as Field) ? MASK : value]));
  return {
    provider,
    connected: true,
    account: row.account,
    baseUrl: row.baseUrl,
    credentials: shown,
    syncInterval: row.syncInterval,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** PUT .../connection/public: checks the credentials against the provider, then stores them sealed. */
export async function putConnection(ctx: WorkspaceContext, provider: ProviderName, body: ConnectionBody) {
  const existing = await findConnection(ctx.db, ctx.workspaceId, provider);
  const { credentials, baseUrl } = credentialsOf(provider, body, existing ? openCredentials(ctx, existing) : null);
  const base = apiBase(provider, credentials, baseUrl);
  let account: string;
  try {
    ({ account } = await CONNECTORS[provider].verify(session(ctx, provider, base, credentials)));
  } catch (error) {
    if (error instanceof ProviderError) throw providerErrorAnswer(error, 'check the credentials');
    throw error;
  }
  const row = await inTransaction(ctx, (tx) =>
    upsertConnection(tx.db, ctx.workspaceId, { provider, sealedCredentials: ctx.secrets.seal(JSON.stringify(credentials)), baseUrl: base, account }, ctx.clock.now()),
  );
  ctx.log.info({ provider, account }, 'provider connected');
  return present(provider, row, credentials);
}

export async function getConnection(ctx: WorkspaceContext, provider: ProviderName) {
  const row = await findConnection(ctx.db, ctx.workspaceId, provider);
  return present(provider, row, row ? openCredentials(ctx, row) : null);
}

/**
 * DELETE: forgets the credentials; sources already imported stay (their refresh fails until
 * reconnected). A re-sync interval the connection set goes with it: its sources follow the workspace's.
 */
export async function deleteConnection(ctx: WorkspaceContext, provider: ProviderName) {
  await inTransaction(ctx, async (tx) => {
    const row = await deleteConnectionRow(tx.db, ctx.workspaceId, provider);
    if (!row) throw new AppError('not_found', `${provider} is not connected in this workspace`);
    if (row.syncInterval !== null) await emit(tx, 'provider.source-sync-changed', { provider, interval: null });
  });
  ctx.log.info({ provider }, 'provider disconnected');
  return { provider, connected: false };
}

/**
 * PATCH .../connection/public: the re-sync of the provider's sources that set none of their own
 * (null: the workspace's default); a change emits `provider.source-sync-changed`, on which the
 * sources module reschedules them. 404 when the provider is not connected.
 */
export async function patchConnection(ctx: WorkspaceContext, provider: ProviderName, body: { syncInterval: string | null }) {
  const row = await inTransaction(ctx, async (tx) => {
    const before = await findConnection(tx.db, ctx.workspaceId, provider);
    if (!before) throw new AppError('not_found', `${provider} is not connected in this workspace`);
    const after = await setConnectionSyncInterval(tx.db, ctx.workspaceId, provider, body.syncInterval, ctx.clock.now());
    if (after && after.syncInterval !== before.syncInterval) await emit(tx, 'provider.source-sync-changed', { provider, interval: after.syncInterval });
    return after;
  });
  return present(provider, row, row ? openCredentials(ctx, row) : null);
}

/** Each connected provider's re-sync recurrence (null: the workspace's default). */
export async function connectionSyncIntervals(ctx: Pick<WorkspaceContext, 'db' | 'workspaceId'>): Promise<Map<string, string | null>> {
  return new Map((await connectionSyncIntervalRows(ctx.db, ctx.workspaceId)).map((r) => [r.provider, r.syncInterval]));
}

/** POST .../connection/test/public: the stored credentials against the provider, now. */
export async function testConnection(ctx: WorkspaceContext, provider: ProviderName) {
  const opened = await openProviderSession(ctx, provider);
  if (!opened) throw notConnected(provider);
  try {
    const { account } = await CONNECTORS[provider].verify(opened);
    return { provider, ok: true, account, error: null };
  } catch (error) {
    if (error instanceof ProviderError) return { provider, ok: false, account: null, error: error.message };
    throw error;
  }
}

/**
 * Key rotation (`parley secrets rotate`), across every workspace on purpose: each connection's
 * credentials are opened with the current key and sealed with the new one, in the caller's
 * transaction. Answers how many connections changed.
 */
export async function rotateConnectionSecrets(tx: Db, from: SecretBox, to: SecretBox): Promise<number> {
  const rows = await unscopedConnections(tx);
  for (const row of rows) await resealConnection(tx, row.workspaceId, row.provider, to.seal(from.open(row.sealedCredentials)));
  return rows.length;
}
