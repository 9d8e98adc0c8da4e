import { createHash, createSign } from 'node:crypto';
import { drive, type drive_v3 } from '@googleapis/drive';
import { failureOf, getJson, PROVIDER_LABELS, ProviderError } from './http.js';
import type { Connector, ItemRef, ProviderSession } from './types.js';

/**
 * Google Drive through `@googleapis/drive` (v3) with `rootUrl` and Parley's providerFetch as its
 * `fetchImplementation` (gaxios' retries off). A connection holds an OAuth access token, or a
 * service account's JSON key, exchanged here for an access token (RS256 JWT bearer grant, RFC 7523)
 * at the key's `token_uri`, through the same fetch. Drive has no discovery: files are registered by id.
 */

export const DRIVE_API = 'https://www.googleapis.com';
const SCOPE = 'https://www.googleapis.com/auth/drive.readonly';
const GOOGLE_DOC = 'application/vnd.google-apps.document';
const GOOGLE_SLIDES = 'application/vnd.google-apps.presentation';
/** Downloaded as they are and handed to the extractors. */
const DOWNLOADABLE = new Set([
  'application/pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'text/html',
  'text/markdown',
  'text/x-markdown',
  'text/plain',
]);

interface ServiceAccount { client_email: string; private_key: string; token_uri?: string }

/** The fields of a service account key Parley needs, or why the JSON is not one. */
export function parseServiceAccount(json: string): ServiceAccount | string {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return 'is not JSON';
  }
  const key = value as Partial<ServiceAccount> | null;
  if (!key || typeof key !== 'object') return 'is not a JSON object';
  if (typeof key.client_email !== 'string' || !key.client_email) return 'has no client_email';
  if (typeof key.private_key !== 'string' || !key.private_key.includes('PRIVATE KEY')) return 'has no private_key';
  if (key.token_uri !== undefined && typeof key.token_uri !== 'string') return 'has a token_uri that is not a string';
  return { client_email: key.client_email, private_key: key.private_key, ...(key.token_uri ? { token_uri: key.token_uri } : {}) };
}

/** Access tokens of service accounts, reused until a minute before they expire (per key, per process). */
const tokenCache = new Map<string, { token: string; expiresAt: number }>();

async function serviceAccountToken(session: ProviderSession, json: string): Promise<string> {
  const cacheKey = createHash('sha256').update(json).digest('hex');
  const cached = tokenCache.get(cacheKey);
  if (cached && cached.expiresAt - 60_000 > Date.now()) return cached.token;
  const account = parseServiceAccount(json);
  if (typeof account === 'string') throw new ProviderError('googledrive', 'unauthorized', `expired connection: the service account key ${account}`);
  const tokenUri = account.token_uri ?? 'https://oauth2.googleapis.com/token';
  const now = Math.floor(Date.now() / 1000);
  const encode = (part: object) => Buffer.from(JSON.stringify(part)).toString('base64url');
  const unsigned = `${encode({ alg: 'RS256', typ: 'JWT' })}.${encode({ iss: account.client_email, scope: SCOPE, aud: tokenUri, iat: now, exp: now + 3600 })}`;
  let signature: string;
  try {
    signature = createSign('RSA-SHA256').update(unsigned).sign(account.private_key, 'base64url');
  } catch {
    throw new ProviderError('googledrive', 'unauthorized', 'expired connection: the service account private_key cannot sign');
  }
  const body = new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: `${unsigned}.${signature}` }).toString();
  let answer: { access_token?: string; expires_in?: number };
  try {
    answer = await getJson(session.http, 'googledrive', tokenUri, 'the service account token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
  } catch (error) {
    // Google answers 400 invalid_grant for a revoked or unknown key: the connection has expired.
    if (error instanceof ProviderError && error.status === 400) throw failureOf('googledrive', 401, 'the service account token');
    throw error;
  }
  if (!answer.access_token) throw new ProviderError('googledrive', 'invalid', 'Google answered the token request without an access_token');
  tokenCache.set(cacheKey, { token: answer.access_token, expiresAt: Date.now() + (answer.expires_in ?? 3600) * 1000 });
  return answer.access_token;
}

async function client(session: ProviderSession): Promise<drive_v3.Drive> {
  const { accessToken, serviceAccountJson } = session.credentials;
  const token = accessToken ?? (await serviceAccountToken(session, serviceAccountJson!));
  return drive({
    version: 'v3',
    rootUrl: `${session.baseUrl.replace(/\/+$/, '')}/`,
    retry: false,
    fetchImplementation: session.http,
    headers: { authorization: `Bearer ${token}` },
  });
}

/** gaxios' errors as ProviderErrors. */
async function call<T>(what: string, run: () => Promise<{ data: unknown }>): Promise<T> {
  try {
    return (await run()).data as T;
  } catch (error) {
    if (error instanceof ProviderError) throw error;
    const status = (error as { status?: number; response?: { status?: number } }).status ?? (error as { response?: { status?: number } }).response?.status;
    if (typeof status === 'number') throw failureOf('googledrive', status, what);
    const cause = (error as { cause?: unknown }).cause;
    if (cause instanceof ProviderError) throw cause;
    throw error;
  }
}

function bytes(data: unknown): Uint8Array {
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (typeof data === 'string') return new TextEncoder().encode(data);
  return new TextEncoder().encode(JSON.stringify(data));
}

async function fetchFile(session: ProviderSession, ref: ItemRef, options: { refresh: boolean }) {
  const api = await client(session);
  const what = `file ${ref.externalId}`;
  const file = await call<drive_v3.Schema$File>(what, () =>
    api.files.get({ fileId: ref.externalId, fields: 'id,name,mimeType,modifiedTime,md5Checksum,webViewLink,trashed', supportsAllDrives: true }),
  );
  if (file.trashed) throw failureOf('googledrive', 404, what);
  const marker = `${file.modifiedTime ?? ''}|${file.md5Checksum ?? ''}`;
  if (options.refresh && ref.marker === marker) return { kind: 'unchanged' as const, marker };
  const mimeType = file.mimeType ?? '';
  let body: Uint8Array;
  let contentType: string;
  if (mimeType === GOOGLE_DOC || mimeType === GOOGLE_SLIDES) {
    contentType = mimeType === GOOGLE_DOC ? 'text/html' : 'text/plain';
    body = bytes(await call(what, () => api.files.export({ fileId: ref.externalId, mimeType: contentType }, { responseType: 'arraybuffer' })));
  } else if (DOWNLOADABLE.has(mimeType)) {
    contentType = mimeType === 'text/x-markdown' ? 'text/markdown' : mimeType;
    body = bytes(await call(what, () => api.files.get({ fileId: ref.externalId, alt: 'media', supportsAllDrives: true }, { responseType: 'arraybuffer' })));
  } else {
    throw new ProviderError('googledrive', 'unsupported', `unsupported content: ${PROVIDER_LABELS.googledrive} file ${ref.externalId} is ${mimeType || 'of an unknown type'}; Parley imports Google Docs and Slides, PDF, DOCX, HTML, Markdown and plain text`);
  }
  return { kind: 'content' as const, marker, body, contentType, filename: file.name ?? null, title: file.name ?? null, url: file.webViewLink ?? null, children: [] };
}

export const driveConnector: Connector = {
  async verify(session) {
    const api = await client(session);
    const about = await call<drive_v3.Schema$About>('the signed-in user', () => api.about.get({ fields: 'user' }));
    return { account: about.user?.emailAddress ?? about.user?.displayName ?? '' };
  },
  discover: null,
  fetchItem: (session, ref, options) => fetchFile(session, ref, options),
};
