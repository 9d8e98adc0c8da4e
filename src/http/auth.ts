import { createHash, hash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { KEY_PATTERN, lookupApiKey, type Principal } from '../modules/api-keys/index.js';
import { lookupWidgetKey, WIDGET_KEY_PATTERN } from '../modules/widget/index.js';
import type { AppDeps } from './deps.js';
import { AppError, AUTH_MESSAGES } from './errors.js';

const MAX_CACHE_ENTRIES = 10_000;

interface CacheEntry {
  principal: Principal | null;
  until: number;
}

/**
 * Verifies workspace keys with a short in-memory cache (at most PARLEY_AUTH_CACHE_MS, 1 s by
 * default), so a revocation made by any process is honoured everywhere within that time.
 */
export class KeyAuthenticator {
  private readonly cache = new Map<string, CacheEntry>();
  /** Lookups in flight, so concurrent requests with one key share a single query. */
  private readonly pending = new Map<string, Promise<Principal | null>>();
  /** Bumped by every forget: a lookup that began before it must not re-cache what was forgotten. */
  private generation = 0;

  constructor(private readonly deps: AppDeps) {}

  /**
   * The verified principal of a presented key (a workspace key, or a widget key `pk_...`): at once
   * from the cache while it holds a fresh verification (no promise on the common path), else a
   * promise of the database lookup.
   */
  authenticate(presented: string): Principal | Promise<Principal> {
    if (!KEY_PATTERN.test(presented) && !WIDGET_KEY_PATTERN.test(presented)) throw new AppError('unauthorized', AUTH_MESSAGES.malformed);
    const now = this.deps.ports.clock.now();
    // The cache is keyed by the key's SHA-256, never by the plaintext.
    const cacheKey = hash('sha256', presented, 'base64');
    const cached = this.cache.get(cacheKey);
    if (cached && cached.until > now.getTime()) {
      // Past half its life, the key is verified again in the background: a key in steady use never
      // waits for the database (which may be busy with a job's long query), and the verification it
      // is admitted on is still never older than the cache's bound.
      if (cached.until - now.getTime() < this.deps.ports.config.authCacheMs / 2 && !this.pending.has(cacheKey)) {
        this.lookup(cacheKey, presented, now).catch(() => undefined);
      }
      return admitted(cached.principal, now);
    }
    return this.lookup(cacheKey, presented, now).then((principal) => admitted(principal, now));
  }

  private lookup(cacheKey: string, presented: string, now: Date): Promise<Principal | null> {
    let pending = this.pending.get(cacheKey);
    if (!pending) {
      const generation = this.generation;
      const lookup = WIDGET_KEY_PATTERN.test(presented)
        ? lookupWidgetKey(this.deps.ports.db, presented)
        : lookupApiKey(this.deps.ports.db, presented, now).then((result) => (result.status === 'ok' ? result.principal : null));
      pending = lookup
        .then((principal) => {
          if (this.deps.ports.config.authCacheMs > 0 && generation === this.generation) {
            if (this.cache.size >= MAX_CACHE_ENTRIES) this.cache.clear();
            this.cache.set(cacheKey, { principal, until: this.deps.ports.clock.now().getTime() + this.deps.ports.config.authCacheMs });
          }
          return principal;
        })
        .finally(() => this.pending.delete(cacheKey));
      this.pending.set(cacheKey, pending);
    }
    return pending;
  }

  /** Drops cached verifications of a workspace's keys in this process (after it changed). */
  forgetWorkspace(workspaceId: string): void {
    this.forgetWhere((principal) => principal.workspaceId === workspaceId);
  }

  /** Drops cached verifications of a key in this process (revocation is immediate here). */
  forget(apiKeyId: string): void {
    this.forgetWhere((principal) => principal.apiKeyId === apiKeyId);
  }

  private forgetWhere(matches: (principal: Principal) => boolean): void {
    this.generation += 1;
    this.pending.clear();
    for (const [key, entry] of this.cache) {
      if (entry.principal && matches(entry.principal)) this.cache.delete(key);
    }
  }
}

function admitted(principal: Principal | null, now: Date): Principal {
  if (!principal) throw new AppError('unauthorized', AUTH_MESSAGES.invalid);
  if (principal.expiresAt && principal.expiresAt.getTime() <= now.getTime()) {
    throw new AppError('unauthorized', AUTH_MESSAGES.expired);
  }
  return principal;
}

function bearer(request: FastifyRequest, missingMessage: string): string {
  const header = request.headers.authorization;
  if (!header) throw new AppError('unauthorized', missingMessage);
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1]) throw new AppError('unauthorized', AUTH_MESSAGES.malformed);
  return match[1];
}

function sameSecret(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

function checkAdmin(request: FastifyRequest, deps: AppDeps): void {
  const token = deps.ports.config.adminToken;
  if (!token) throw new AppError('not_found', AUTH_MESSAGES.adminDisabled);
  if (!request.headers.authorization) throw new AppError('unauthorized', AUTH_MESSAGES.adminMissing);
  if (!sameSecret(bearer(request, AUTH_MESSAGES.adminMissing), token)) {
    throw new AppError('unauthorized', AUTH_MESSAGES.adminInvalid);
  }
}

/**
 * The key a request presents: `Authorization: Bearer ...`; a visitor route also takes the widget
 * key as `?widgetKey=` when no header is sent (a browser's EventSource cannot send headers).
 */
function presentedKey(request: FastifyRequest, auth: 'read' | 'write' | 'visitor'): string {
  if (auth === 'visitor' && !request.headers.authorization) {
    const fromQuery = (request.query as Record<string, unknown> | undefined)?.widgetKey;
    if (typeof fromQuery === 'string' && fromQuery) return fromQuery;
  }
  return bearer(request, AUTH_MESSAGES.missing);
}

/** The 403 of a key without `scope` (a widget key holds none: every workspace route is a 403 to it), or undefined. */
function scopeRefusal(principal: Principal, scope: 'read' | 'write'): AppError | undefined {
  if (principal.scopes.includes(scope)) return undefined;
  return new AppError('forbidden', principal.widget ? AUTH_MESSAGES.widgetScope : AUTH_MESSAGES.scope);
}

/** Throws the route's 403 when the key lacks `scope`: for checks made after a route's own (the MCP server's tools). */
export function requireScope(principal: Principal, scope: 'read' | 'write'): void {
  const refused = scopeRefusal(principal, scope);
  if (refused) throw refused;
}

function admit(request: FastifyRequest, auth: 'read' | 'write' | 'visitor', principal: Principal, done: HookHandlerDoneFunction): void {
  if (auth === 'visitor') {
    // A visitor route takes a widget key only, and only from one of its origins.
    if (!principal.widget) {
      done(new AppError('forbidden', AUTH_MESSAGES.widgetOnly));
      return;
    }
    const origin = request.headers.origin;
    if (!origin || !principal.widget.allowedOrigins.includes(origin)) {
      done(new AppError('forbidden', origin ? AUTH_MESSAGES.widgetOrigin(origin) : AUTH_MESSAGES.widgetNoOrigin));
      return;
    }
  } else {
    const refused = scopeRefusal(principal, auth);
    if (refused) {
      done(refused);
      return;
    }
  }
  request.principal = principal;
  done();
}

/**
 * Authentication and scope check for every route, driven by the route's `auth` declaration. A
 * callback hook, so a key verified from the cache costs no promise and no extra microtask.
 */
export function registerAuth(app: FastifyInstance, deps: AppDeps, authenticator: KeyAuthenticator): void {
  // Declared on every request up front, so setting it does not change the request object's shape.
  app.decorateRequest('principal', undefined);
  app.addHook('onRequest', (request, _reply, done) => {
    const auth = request.routeOptions.config.auth;
    if (!auth || auth === 'none') {
      done();
      return;
    }
    let principal: Principal | Promise<Principal> | undefined;
    try {
      if (auth === 'admin') checkAdmin(request, deps);
      else principal = authenticator.authenticate(presentedKey(request, auth));
    } catch (error) {
      done(error as Error);
      return;
    }
    if (auth === 'admin' || principal === undefined) done();
    else if (principal instanceof Promise) principal.then((verified) => admit(request, auth, verified, done), done);
    else admit(request, auth, principal, done);
  });
}
