/**
 * The finishing pass over the OpenAPI document @fastify/swagger builds from the route
 * declarations (src/http/openapi.ts runs it once, when the document is first asked for): what no
 * single route's schema can say. Each operation gets its responses' headers, the error answers every
 * route can give (414, 417) and the JSON content type of every error; the document gets its tags
 * with descriptions, a server, and only the component schemas it references. docs/openapi.md
 * describes the result and how it is checked.
 */

/** Every operation tag with its description; a route's tag missing here fails test/platform/openapi.test.ts. */
export const TAGS: Readonly<Record<string, string>> = {
  Operations: 'Liveness, readiness, Prometheus metrics and this document: no key, not rate limited.',
  Workspace: 'The workspace of the calling API key.',
  Agents: 'Agents (the wire `bots`): what answers customers, from the folders and the prompt it is given; their analytics.',
  'Agent prompts': "An agent's prompt (`hc-prompt`): the saved versions and the drafts.",
  Articles: 'The knowledge agents answer from (`hc-articles`): live articles and drafts, with an append-only version history.',
  Folders: 'The knowledge tree (`hc-folders`) and which folders each agent answers from.',
  'Knowledge tree': 'Import of a knowledge tree file (CSV): folders and articles in one request.',
  'Knowledge generation': 'Articles drafted from text or sources by background jobs, knowledge search as an agent sees it, tree templates.',
  Sources: 'Sources (the wire `documents`): web pages, uploaded files and provider items, with their ingestion jobs.',
  Providers: 'Connections to Notion, Zendesk, Confluence and Google Drive; credentials sealed at rest.',
  Tags: 'Tag groups and the tags the agent puts on conversations.',
  Rules: 'Intent and business rules (`hc-rules`) with versions, drafts from instructions and dry runs, and the reply rules (`reply-behavior`).',
  Guardrails: "Checks on the customer's message or the agent's answer: blocked topics and phrases, PII redaction, length, citations.",
  Actions: "Actions and attributes (`hc-tools`): calls to a team's own systems, and their external API call steps (`api-function-configs`).",
  Conversations: "Conversations (`hc-interactions`), Generate Answer, a reply's trace (event metadata) and feedback.",
  Widget: "The chat widget: widget keys of an agent, and the routes its visitors call with one.",
  'Refine with AI': 'Refine with AI (`fix-review`): feedback on one reply diagnosed, fixed with drafts and replayed.',
  Webhooks: 'Endpoints that receive signed events, with their deliveries.',
  MCP: "The Model Context Protocol server (Streamable HTTP) for AI assistants: Parley's tools and resources in the key's workspace.",
  Testing: "Test cases of an agent, runs of them k times (pass@1, pass^k) with drafts overlaid, and the agent's test schedule; publishes of drafts are gated on them.",
  'Audit log': "Who wrote what and when in the workspace: every write through the API, its jobs and the MCP server.",
  Admin: "The operator's routes: workspaces, their API keys, the job workers, the deployment's audit log.",
};

/** What the finishing pass needs to know of a route, carried on its operation as `x-parley` (then removed). */
export interface RouteFacts {
  /** Counted by the rate limiter: its answers carry the `X-RateLimit-*` headers. */
  rateLimited: boolean;
  /** The route takes no body: an empty JSON object, or nothing. */
  emptyBody: boolean;
}
export const FACTS_KEY = 'x-parley';

import { SHAPE_KEY } from './schemas.js';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

const HEADERS: Json = {
  RequestId: {
    description:
      'The id of this request in the logs: the `X-Request-Id` the client sent when it is 1 to 128 characters of ' +
      '`A-Z a-z 0-9 . _ : -`, else a generated UUID.',
    required: true,
    schema: { type: 'string', minLength: 1, maxLength: 128 },
  },
  // The rate limiter sets these on every request it counts: each success and each 429 (an error
  // raised before it, such as a 401, has none; one raised after it has them too).
  RateLimitLimit: { description: 'Requests allowed in the current window (`PARLEY_RATE_LIMIT_MAX`, or the answering budget).', required: true, schema: { type: 'integer', minimum: 1 } },
  RateLimitRemaining: { description: 'Requests left in the current window.', required: true, schema: { type: 'integer', minimum: 0 } },
  RateLimitReset: { description: 'Seconds until the current window ends.', required: true, schema: { type: 'integer', minimum: 1 } },
  RetryAfter: { description: 'Seconds to wait before the next request counts again.', required: true, schema: { type: 'integer', minimum: 1 } },
};

const ERROR_CONTENT = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };

/** Answered for any route before it runs: Node's HTTP server, on an `Expect` header other than 100-continue. */
const EXPECTATION_FAILED = {
  description: 'An `Expect` header other than `100-continue` (answered before routing, without `X-Request-Id`).',
  content: ERROR_CONTENT,
};
const URI_TOO_LONG = 'A path parameter longer than 100 characters (answered by the router, before authentication).';

/** The headers of one response of an operation: those it always carries. */
function responseHeaders(status: string, facts: RouteFacts): Json {
  const headers: Json = { 'X-Request-Id': headerRef('RequestId') };
  if (!facts.rateLimited || !(status.startsWith('2') || status === '429')) return headers;
  headers['X-RateLimit-Limit'] = headerRef('RateLimitLimit');
  headers['X-RateLimit-Remaining'] = headerRef('RateLimitRemaining');
  headers['X-RateLimit-Reset'] = headerRef('RateLimitReset');
  if (status === '429') headers['Retry-After'] = headerRef('RetryAfter');
  return headers;
}

function finishOperation(path: string, operation: Json): void {
  const facts = (operation[FACTS_KEY] ?? { rateLimited: false, emptyBody: false }) as RouteFacts;
  delete operation[FACTS_KEY];
  const responses = (operation.responses ?? {}) as Json;
  if (path.includes('{')) responses['414'] = { description: URI_TOO_LONG, content: ERROR_CONTENT };
  for (const [status, response] of Object.entries(responses)) {
    if (!isObject(response)) continue;
    // Errors answer the JSON error body whatever the route's success answer is (a file, a CSV).
    if (Number(status) >= 400) response.content = ERROR_CONTENT;
    response.headers = responseHeaders(status, facts);
  }
  responses['417'] = { $ref: '#/components/responses/ExpectationFailed' };
  operation.responses = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
  const body = operation.requestBody as Json | undefined;
  if (facts.emptyBody && body) {
    body.required = false;
    body.description = 'None: the operation takes no body. An empty JSON object `{}` is accepted too; anything else is a 400.';
  }
}

/**
 * Replaces schemas marked `{ [SHAPE_KEY]: 'Name' }` (`documentedAs`) by a reference to the component
 * `Name`, or `NameInput` where the document describes a request (zod's input side of the shape).
 */
function referenceShapes(node: unknown, io: 'input' | 'output'): unknown {
  if (Array.isArray(node)) return node.map((item) => referenceShapes(item, io));
  if (!isObject(node)) return node;
  const shape = node[SHAPE_KEY];
  if (typeof shape === 'string') {
    const description = typeof node.description === 'string' ? { description: node.description } : {};
    return { $ref: `#/components/schemas/${io === 'input' ? `${shape}Input` : shape}`, ...description };
  }
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [key, referenceShapes(value, key === 'requestBody' || key === 'parameters' ? 'input' : io)]),
  );
}

function referenceAllShapes(document: Json): Json {
  const components = (document.components ?? {}) as Json;
  const schemas = Object.fromEntries(
    Object.entries((components.schemas ?? {}) as Json).map(([name, schema]) => [name, referenceShapes(schema, name.endsWith('Input') ? 'input' : 'output')]),
  );
  return { ...document, paths: referenceShapes(document.paths, 'output'), components: { ...components, schemas } };
}

/** Every `#/components/<kind>/<name>` referenced from `node`. */
function collectRefs(node: unknown, into: Set<string>): void {
  if (Array.isArray(node)) return node.forEach((item) => collectRefs(item, into));
  if (!isObject(node)) return;
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/')) into.add(value);
    else collectRefs(value, into);
  }
}

/** Drops component schemas nothing references (the `*Input` twins of answer schemas, schemas of other routes' inputs). */
function pruneSchemas(document: Json): void {
  const components = document.components as Json;
  const schemas = components.schemas as Json;
  const used = new Set<string>();
  collectRefs({ ...document, components: undefined }, used);
  collectRefs({ ...components, schemas: undefined }, used);
  // Schemas referenced only from other used schemas: follow references until nothing new is found.
  const queue = [...used];
  while (queue.length) {
    const ref = queue.pop()!;
    const name = ref.startsWith('#/components/schemas/') ? ref.slice('#/components/schemas/'.length) : undefined;
    if (!name || !(name in schemas)) continue;
    const inner = new Set<string>();
    collectRefs(schemas[name], inner);
    for (const found of inner) {
      if (used.has(found)) continue;
      used.add(found);
      queue.push(found);
    }
  }
  components.schemas = Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(`#/components/schemas/${name}`)));
}

export interface FinishOptions {
  /** PARLEY_PUBLIC_URL: the server's public address; the document is relative to where it is served otherwise. */
  publicUrl: string | undefined;
}

/** The served document: the swagger-built one with the additions above. */
export function finishDocument(built: Json, options: FinishOptions): Json {
  const document = referenceAllShapes(built);
  const paths = (document.paths ?? {}) as Record<string, Json>;
  const used = new Set<string>();
  for (const [path, item] of Object.entries(paths)) {
    for (const operation of Object.values(item)) {
      if (!isObject(operation)) continue;
      finishOperation(path, operation);
      for (const tag of (operation.tags ?? []) as string[]) used.add(tag);
    }
  }
  const order = Object.keys(TAGS);
  const rank = (tag: string) => (order.includes(tag) ? order.indexOf(tag) : order.length);
  const components = (document.components ?? {}) as Json;
  document.components = {
    ...components,
    headers: HEADERS,
    responses: { ExpectationFailed: EXPECTATION_FAILED },
  };
  pruneSchemas(document);
  const { openapi, info, ...rest } = document;
  return {
    openapi,
    info,
    servers: [options.publicUrl ? { url: options.publicUrl, description: 'This deployment (PARLEY_PUBLIC_URL).' } : { url: '/', description: 'The server that serves this document.' }],
    tags: [...used].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b)).map((name) => (TAGS[name] ? { name, description: TAGS[name] } : { name })),
    ...rest,
  };
}
