/**
 * The operationId of every route, derived in this one place from its method and path, so that a
 * new route gets a stable, readable name (a generated client's method name) without a line of its
 * own: `GET /v2/hc-articles/public` is `listArticles`, `GET /v2/hc-articles/{id}/public`
 * `getArticle`, `POST /v2/bots/{id}/hc-prompt/drafts/{draftId}/publish/public`
 * `publishAgentPromptDraft`. A route whose derived name reads badly, or collides with another's,
 * gets a line in `NAMED` below; test/platform/openapi.test.ts fails on a collision, on a route
 * without an operationId and on a line of `NAMED` that names no route.
 *
 * The rule: the path's segments without `v2` and `public`; each static segment is a noun (the
 * product's name for a wire name, `NOUNS`) unless it is the last one and names an action
 * (`ACTIONS`: `publish`, `test`, ...), which is then the verb. Otherwise the verb comes from the
 * method: GET `get` for one item (the path ends with a parameter or names a singular resource)
 * or `list`, POST `create`, PUT and PATCH `update`, DELETE `delete`. The nouns follow the verb in
 * path order, each singular where a parameter follows it (one item of it) and the last one plural
 * where the operation concerns many (`list`, a bulk `delete`).
 */

/** The product's names of wire segments: [singular, plural]; a segment missing here is its own name. */
const NOUNS: Record<string, readonly [string, string]> = {
  bots: ['agent', 'agents'],
  'hc-interactions': ['conversation', 'conversations'],
  interactions: ['conversation', 'conversations'],
  documents: ['source', 'sources'],
  'hc-tools': ['tool', 'tools'],
  'api-function-configs': ['step', 'steps'],
  'hc-events': ['event', 'events'],
  'reply-behavior': ['replyRule', 'replyRules'],
  'hc-prompt': ['prompt', 'prompt'],
  'hc-analytics': ['analytics', 'analytics'],
  history: ['history', 'history'],
  'fix-review': ['refine', 'refine'],
  widget: ['visitor', 'visitor'],
  metadata: ['metadata', 'metadata'],
  feedback: ['feedback', 'feedback'],
  status: ['status', 'statuses'],
  admin: ['', ''],
  healthz: ['health', 'health'],
  readyz: ['readiness', 'readiness'],
  metrics: ['metrics', 'metrics'],
  'openapi.json': ['openApiDocument', 'openApiDocument'],
};

/** Wire segments that name one thing (a singleton under its parent): GET on them is `get`, not `list`. */
const SINGLETONS = new Set(['workspace', 'hc-prompt', 'history', 'connection', 'hc-analytics', 'metadata', 'session', 'file', 'healthz', 'readyz', 'metrics', 'openapi.json']);

/** Last segments that name what the operation does: the verb, and a noun it adds after the others. */
const ACTIONS: Record<string, string | readonly [string, string]> = {
  assign: 'assign',
  close: 'close',
  draft: 'draft',
  evaluate: 'evaluate',
  initialize: 'initialize',
  move: 'move',
  persist: 'import',
  publish: 'publish',
  redeliver: 'redeliver',
  refine: 'refine',
  refresh: 'refresh',
  release: 'release',
  restore: 'restore',
  revert: 'revert',
  'rotate-secret': ['rotate', 'secret'],
  search: 'search',
  stream: 'stream',
  test: 'test',
};

const METHOD_VERBS: Record<string, string> = { POST: 'create', PUT: 'update', PATCH: 'update', DELETE: 'delete' };

const isParam = (segment: string) => segment.startsWith('{') || segment.startsWith(':');
const capitalize = (word: string) => (word ? word[0]!.toUpperCase() + word.slice(1) : word);
const camel = (segment: string) =>
  segment
    .replace(/^hc-/, '')
    .split(/[-_.]/)
    .filter(Boolean)
    .map((part, i) => (i === 0 ? part : capitalize(part)))
    .join('');

function singularOf(word: string): string {
  if (/ies$/.test(word)) return `${word.slice(0, -3)}y`;
  if (/(ss|us|is)$/.test(word)) return word;
  if (/(sh|ch|x|ses)$/.test(word) && word.endsWith('es')) return word.slice(0, -2);
  return word.endsWith('s') ? word.slice(0, -1) : word;
}

function nounOf(segment: string): readonly [string, string] {
  const known = NOUNS[segment];
  if (known) return known;
  const name = camel(segment);
  const singular = singularOf(name);
  return [singular, singular === name ? name : name];
}

/** The derived operationId of a route: `method` in capitals, `path` with `{param}` or `:param`. */
export function deriveOperationId(method: string, path: string): string {
  const segments = path.split('/').filter((s) => s && s !== 'v2' && s !== 'public');
  const last = segments.at(-1);
  const action = last && segments.length > 1 && !isParam(last) ? ACTIONS[last] : undefined;
  if (action) segments.pop();
  const endsWithParam = segments.length > 0 && isParam(segments.at(-1)!);
  const nouns = segments.flatMap((segment, i) => {
    if (isParam(segment)) return [];
    const [singular, plural] = nounOf(segment);
    const item = i + 1 < segments.length && isParam(segments[i + 1]!);
    return [{ singular, plural, item, singleton: SINGLETONS.has(segment) }];
  });
  const target = nouns.at(-1);
  const singleton = target?.singleton === true;
  let verb: string;
  let suffix = '';
  // The last noun: one item of it (a parameter follows, or the operation makes one), or many.
  let one = target?.item || singleton;
  if (action) {
    [verb, suffix] = typeof action === 'string' ? [action, ''] : action;
  } else if (method === 'GET') {
    verb = endsWithParam || singleton ? 'get' : 'list';
  } else if (method === 'POST' && !endsWithParam) {
    verb = 'create';
    one = true;
  } else {
    verb = METHOD_VERBS[method] ?? method.toLowerCase();
  }
  const words = nouns.map((noun, i) => (i === nouns.length - 1 ? (one ? noun.singular : noun.plural) : noun.item ? noun.singular : noun.plural));
  return [verb, ...words, suffix].map((word, i) => (i === 0 ? word : capitalize(word))).join('');
}

/**
 * Routes whose derived name reads badly (`createArticlesId`) or would collide, by `METHOD path`:
 * the specification's wire paths do not always say what the operation does.
 */
export const NAMED: Readonly<Record<string, string>> = {
  'POST /v2/hc-articles/ids/public': 'getArticlesByIds',
  'POST /v2/hc-articles/{id}/draft/public': 'createArticleDraft',
  'POST /v2/hc-articles/{id}/publish/public': 'publishArticleDraft',
  'POST /v2/hc-articles/{id}/history/public': 'getArticleVersion',
  'GET /v2/hc-folders/public': 'getKnowledgeSnapshot',
  'POST /v2/hc-bot-folder-junctions/public': 'assignFoldersToAgents',
  'POST /v2/knowledge/public': 'generateKnowledge',
  'POST /v2/knowledge/public/bulk': 'generateKnowledgeFromSources',
  'POST /v2/knowledge/public/jobs/status': 'getKnowledgeJobStatuses',
  'POST /v2/documents/public': 'ingestSources',
  'GET /v2/documents/public/resources/{provider}': 'listProviderResources',
  'POST /v2/documents/public/resources/{provider}': 'registerProviderResources',
  'POST /v2/documents/public/deep-crawl/links': 'discoverSiteLinks',
  'POST /v2/documents/public/files': 'uploadSourceFile',
  'PUT /v2/providers/{provider}/connection/public': 'connectProvider',
  'DELETE /v2/providers/{provider}/connection/public': 'disconnectProvider',
  'PUT /v2/tag-groups/{id}/tags/public': 'updateTag',
  'POST /v2/bots/{id}/hc-prompt': 'saveAgentPrompt',
  'POST /v2/hc-rules/draft/public': 'draftRule',
  'POST /v2/hc-interactions/events/public': 'generateAnswer',
  'POST /v2/hc-events/{id}/feedback/public': 'giveEventFeedback',
  'POST /v2/widget/conversations/{id}/messages': 'sendVisitorMessage',
  'POST /v2/widget/conversations/{id}/events/{eventId}/feedback': 'rateVisitorReply',
  'POST /v2/fix-review/interactions/{id}/events/{eventId}/sessions/iterations/public': 'createRefineIteration',
  'GET /v2/fix-review/interactions/{id}/events/{eventId}/session/public': 'getActiveRefineSession',
  'POST /v2/fix-review/sessions/{sessionId}/iterations/{iterationId}/publish/public': 'publishRefineIteration',
  'DELETE /v2/admin/api-keys/{id}': 'revokeApiKey',
  'GET /v2/admin/audit-log': 'listDeploymentAuditLog',
};

/** The path as OpenAPI writes it: `{param}` for Fastify's `:param`. */
export const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** The operationId of a route: its line in `NAMED`, or the derived name. */
export function operationIdOf(method: string, url: string): string {
  const path = openApiPath(url);
  return NAMED[`${method} ${path}`] ?? deriveOperationId(method, path);
}
