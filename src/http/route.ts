import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ResponseSerializationError, serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type AuditDetails, type AuditScope, contextForRequest, type Ports, type ProcessContext, type WorkspaceContext } from '../context.js';
import { AppError, errorBodySchema } from './errors.js';
import { FACTS_KEY, type RouteFacts } from './openapi-document.js';
import { openApiPath, operationIdOf } from './operation-ids.js';
import type { AppDeps } from './deps.js';
import { readUpload, type Upload, type UploadDeclaration, uploadJsonSchema } from './multipart.js';
import type { RateLimitBudget } from './rate-limit.js';
import { compileResponseWriter, ResponseShapeError } from './response-writer.js';

/** Schema key carrying a multipart route's OpenAPI body; openapi.ts moves it into place. */
export const UPLOAD_BODY_KEY = 'x-upload-body';

/**
 * Who may call a route: a workspace key with a scope, a widget key from one of its origins (a
 * visitor of its agent), the operator's admin token, or anyone (operations endpoints). Checked
 * centrally in auth.ts from this declaration, never in a handler.
 */
export type RouteAuth = 'read' | 'write' | 'visitor' | 'admin' | 'none';

type Input<S> = S extends z.ZodType ? z.output<S> : undefined;
type ContextFor<A extends RouteAuth> = A extends 'read' | 'write' | 'visitor' ? WorkspaceContext : A extends 'admin' ? ProcessContext : undefined;

/** A route is a declaration: method, path, auth, schemas, docs and a handler of a few lines. */
export interface RouteDeclaration<
  A extends RouteAuth = RouteAuth,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  P extends z.ZodType | undefined = z.ZodType | undefined,
  R extends z.ZodType = z.ZodType,
> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  auth: A;
  summary: string;
  description?: string;
  tags: string[];
  body?: B;
  querystring?: Q;
  params?: P;
  /**
   * A multipart upload: the file field and text fields; the handler receives them as `upload`.
   * Such a route takes `multipart/form-data` only; every other route with a body takes JSON only
   * (anything else is a 415).
   */
  upload?: UploadDeclaration;
  /** Success status; 200 by default. */
  status?: number;
  response: R;
  /**
   * Content type of a non-JSON success answer (metrics, files), or the types it may have (the first
   * is the default). A handler returning a Buffer is sent as is; it may set a more exact Content-Type
   * itself, one of these.
   */
  produces?: string | readonly string[];
  /** Statuses this route answers besides the ones every route of its kind can (documented). */
  errors?: number[];
  /**
   * `presenter`: send the handler's result with plain JSON.stringify instead of encoding it through
   * the response schema. For large answers (the knowledge snapshot) whose presenter already builds
   * the exact wire shape; the schema still documents the answer and tests check it.
   */
  serializer?: 'schema' | 'presenter';
  /**
   * `false`: not rate limited (operations routes); `answer`: counted against the key's answering
   * budget (PARLEY_RATE_LIMIT_ANSWER_MAX) instead of the general one.
   */
  rateLimit?: false | RateLimitBudget;
  hidden?: boolean;
  handler: (input: {
    ctx: ContextFor<A>;
    body: Input<B>;
    query: Input<Q>;
    params: Input<P>;
    upload: Upload | undefined;
    request: FastifyRequest;
    reply: FastifyReply;
  }) => Promise<z.input<R>>;
}

/** Keeps the schemas' types attached to the handler. */
export function defineRoute<
  A extends RouteAuth,
  R extends z.ZodType,
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  P extends z.ZodType | undefined = undefined,
>(route: RouteDeclaration<A, B, Q, P, R>): RouteDeclaration<A, B, Q, P, R> {
  return route;
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Malformed JSON, a field that fails validation (named in `message`), or a malformed UUID.',
  401: 'Missing, malformed, unknown, expired or revoked credentials.',
  403: 'The API key lacks the scope this operation requires.',
  404: 'Not found in this workspace.',
  406: 'The resource belongs to a different workspace.',
  409: 'Conflicts with the current state of the resource.',
  413: 'Request body larger than the configured limit.',
  415: 'Content-Type not accepted by this route.',
  429: 'Rate limit exceeded for this key; retry after the `Retry-After` seconds.',
  500: 'Unexpected failure; the request id in `X-Request-Id` finds it in the log.',
  502: 'The configured language model failed or gave an unusable answer (named in `message`).',
  503: 'Not ready, or the embedded database is restarting; retry after the `Retry-After` seconds.',
};

/**
 * The body of a POST, PUT or PATCH route that declares none: nothing, or an empty JSON object (what
 * clients of such routes send), documented as such; anything else is a 400 naming the key.
 */
const EMPTY_BODY = z.strictObject({}).nullish(); // Fastify gives null for a request without a body

function bodyOf(route: RouteDeclaration): z.ZodType | undefined {
  if (route.body || route.upload) return route.body;
  return route.method === 'GET' || route.method === 'DELETE' ? undefined : EMPTY_BODY;
}

function documentedErrors(route: RouteDeclaration): number[] {
  const statuses = new Set<number>(route.errors ?? []);
  const body = bodyOf(route);
  if (route.auth !== 'none') [401, 429].forEach((s) => statuses.add(s));
  if (route.auth === 'read' || route.auth === 'write' || route.auth === 'visitor') statuses.add(403);
  if (body || route.querystring || route.params) statuses.add(400);
  if (body || route.upload) [413, 415].forEach((s) => statuses.add(s));
  if (route.upload) statuses.add(400);
  statuses.add(500);
  // A route that reads the database answers 503 while the embedded database's thread restarts.
  if (route.auth !== 'none') statuses.add(503);
  return [...statuses].sort((a, b) => a - b);
}

function describe(route: RouteDeclaration): string {
  const who =
    route.auth === 'read' || route.auth === 'write'
      ? `Scope: \`${route.auth}\` (workspace API key).`
      : route.auth === 'visitor'
        ? 'Authentication: a widget key (`Authorization: Bearer pk_...`) of the agent, sent from one of its `allowedOrigins` (`Origin`).'
        : route.auth === 'admin'
          ? 'Authentication: admin token (`PARLEY_ADMIN_TOKEN`).'
          : 'No authentication.';
  return [route.description, who].filter(Boolean).join('\n\n');
}

function contentTypeMatches(header: string | undefined, consumes: 'json' | 'multipart'): boolean {
  const type = (header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (consumes === 'multipart') return type === 'multipart/form-data';
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
}

/**
 * The response serializer: the route's compiled writer (response-writer.ts), built once from its
 * response schema, which writes what zod's parse and JSON.stringify would without zod's parse; a
 * schema with direction-dependent parts (transforms, defaults, pipes, codecs) keeps zod's encode.
 * An answer off its schema's shape fails with ResponseSerializationError, a 500, either way.
 */
function responseSerializerCompiler(route: { schema: unknown; method: string; url: string }): (data: unknown) => string {
  const schema = route.schema;
  const write = schema instanceof Object && '_zod' in schema ? compileResponseWriter(schema as z.ZodType) : undefined;
  if (!write) return serializerCompiler(route as Parameters<typeof serializerCompiler>[0]);
  return (data: unknown) => {
    try {
      return write(data);
    } catch (error) {
      if (!(error instanceof ResponseShapeError)) throw error;
      throw new ResponseSerializationError(route.method, route.url, { cause: error.toZodError() });
    }
  };
}

const presenterSerializerCompiler = () => (data: unknown) => JSON.stringify(data);

/**
 * The request as visitor routes log it: a visitor token may travel in the query (the event stream,
 * which browsers open without headers), and a bearer secret of a conversation stays out of logs.
 */
const VISITOR_LOG_SERIALIZERS = {
  req: (request: FastifyRequest) => ({
    method: request.method,
    url: request.url.replace(/([?&]visitorToken=)[^&#]*/gi, '$1[redacted]'),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  }),
};

/** Registers declared routes on the app: schemas, OpenAPI docs, content-type check, context. */
export function registerRoutes(app: FastifyInstance, deps: AppDeps, routes: readonly RouteDeclaration[]): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  for (const route of routes) {
    const consumes = route.upload ? 'multipart' : 'json';
    const body = bodyOf(route);
    const produces = typeof route.produces === 'string' ? [route.produces] : route.produces;
    const facts: RouteFacts = { rateLimited: route.rateLimit !== false, emptyBody: body === EMPTY_BODY };
    const audit = isAudited(route) ? auditTargetOf(route) : undefined;
    const responses: Record<number, z.ZodType> = { [route.status ?? 200]: route.response };
    for (const status of documentedErrors(route)) {
      responses[status] = errorBodySchema.describe(ERROR_DESCRIPTIONS[status] ?? 'Error.');
    }
    typed.route({
      method: route.method,
      url: route.url,
      config: { auth: route.auth, rateLimit: route.rateLimit, serializer: route.serializer ?? 'schema' },
      ...(route.auth === 'visitor' ? { logSerializers: VISITOR_LOG_SERIALIZERS } : {}),
      serializerCompiler: route.serializer === 'presenter' ? presenterSerializerCompiler : responseSerializerCompiler,
      schema: {
        operationId: operationIdOf(route.method, route.url),
        summary: route.summary,
        description: describe(route),
        tags: route.tags,
        hide: route.hidden,
        security:
          route.auth === 'read' || route.auth === 'write'
            ? [{ apiKey: [] }]
            : route.auth === 'visitor'
              ? [{ widgetKey: [] }]
              : route.auth === 'admin'
                ? [{ adminToken: [] }]
                : [],
        [FACTS_KEY]: facts,
        ...(body ? { body, consumes: ['application/json'] } : {}),
        ...(route.upload ? { [UPLOAD_BODY_KEY]: uploadJsonSchema(route.upload), consumes: ['multipart/form-data'] } : {}),
        ...(route.querystring ? { querystring: route.querystring } : {}),
        ...(route.params ? { params: route.params } : {}),
        ...(produces ? { produces } : {}),
        response: responses,
      },
      // The fields the client sent, before validation adds defaults: what the audit entry names.
      ...(audit && body ? { preValidation: async (request: FastifyRequest) => void SENT_FIELDS.set(request, sentFields(request.body)) } : {}),
      preParsing: async (request, _reply, payload) => {
        if ((body || route.upload) && hasBody(request) && !contentTypeMatches(request.headers['content-type'], consumes)) {
          const expected = consumes === 'json' ? 'application/json' : 'multipart/form-data';
          throw new AppError('unsupported_media_type', `Content-Type must be ${expected}`);
        }
        return payload;
      },
      handler: async (request, reply) => {
        const upload = route.upload ? await readUpload(request, route.upload, deps.ports.config.uploadLimitBytes) : undefined;
        const auditScope = audit ? auditScopeOf(deps.ports, route, audit, request, upload) : undefined;
        const ctx = route.auth === 'none' ? undefined : contextForRequest(deps.ports, request, undefined, auditScope);
        const result = await route.handler({
          ctx: ctx as never,
          body: request.body as never,
          query: request.query as never,
          params: request.params as never,
          upload,
          request,
          reply,
        });
        // A write that ran as bare statements, outside any transaction, is recorded right after it.
        if (auditScope && ctx && !auditScope.recorded) await auditScope.recordAfter(deps.ports.db, ctx, result);
        reply.code(route.status ?? 200);
        // A handler may name the exact type of what it sends (a stored file); `produces` is the default.
        if (produces && !reply.hasHeader('content-type')) reply.type(produces[0]!);
        return result;
      },
    });
  }
}

/**
 * The routes whose requests the audit log records: every write of a workspace key, a widget
 * visitor or the operator (reads, even those sent as POST with a body, are not recorded).
 */
function isAudited(route: RouteDeclaration): boolean {
  return route.method !== 'GET' && (route.auth === 'write' || route.auth === 'visitor' || route.auth === 'admin');
}

/** The top-level field names of a write's JSON body as sent (set before validation). */
const SENT_FIELDS = new WeakMap<FastifyRequest, string[]>();

function sentFields(body: unknown): string[] {
  return body instanceof Object && !Array.isArray(body) ? Object.keys(body) : [];
}

/** Path segments that group routes rather than name a collection. */
const GROUPING_SEGMENTS = new Set(['v2', 'public', 'admin', 'widget']);

/** What every request of a write route says alike, worked out once when the route is registered. */
interface AuditTarget {
  action: string;
  resourceType: string | null;
  /** The path's first parameter: the id of the resource it names. */
  param: string | undefined;
}

/** The route (`POST /v2/hc-articles/{id}/publish/public`), the collection its path names first, and that path's first parameter. */
function auditTargetOf(route: RouteDeclaration): AuditTarget {
  const segments = route.url.split('/').filter(Boolean);
  return {
    action: `${route.method} ${openApiPath(route.url)}`,
    resourceType: segments.find((s) => !s.startsWith(':') && !GROUPING_SEGMENTS.has(s)) ?? null,
    param: segments.find((s) => s.startsWith(':'))?.slice(1),
  };
}

/**
 * The audit scope of a write route's request (src/modules/audit): its route and resource (the
 * path's first parameter, else, once written, what the write made) and the names of the fields it
 * was given.
 */
function auditScopeOf(ports: Ports, route: RouteDeclaration, target: AuditTarget, request: FastifyRequest, upload: Upload | undefined): AuditScope {
  const value = target.param ? (request.params as Record<string, unknown> | undefined)?.[target.param] : undefined;
  const resourceId = typeof value === 'string' ? value : null;
  const details: AuditDetails = {
    action: target.action,
    resourceType: target.resourceType,
    resourceId,
    fields: upload ? ['file', ...Object.keys(upload.fields)] : (SENT_FIELDS.get(request) ?? []),
    ...(route.auth === 'admin' && target.resourceType === 'workspaces' && resourceId ? { workspaceId: resourceId } : {}),
  };
  return ports.audit.begin(details);
}
