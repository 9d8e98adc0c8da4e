import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type CallToolResult, ErrorCode, McpError, type ReadResourceResult, type ResourceLink, type ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { type AuditDetails, principalOf, type Scope, type WorkspaceContext } from '../../context.js';
import { requireScope } from '../../http/auth.js';
import { describeError } from '../../http/error-renderer.js';
import { uuidSchema } from '../../http/schemas.js';
import { version } from '../../version.js';
import { interactionPresented } from '../conversations/index.js';
import { presentArticle, searchAsClient, presentSearchHit } from '../knowledge/index.js';
import { getSession } from '../refine/index.js';
import {
  ARTICLE_URI,
  articleOutput,
  articleUri,
  askAgentInput,
  askAgentOutput,
  conversationOutput,
  createArticleDraftInput,
  FIX_SESSION_URI,
  getArticleInput,
  getConversationInput,
  listConversationsInput,
  listConversationsOutput,
  proposeFixInput,
  proposeFixOutput,
  searchKnowledgeInput,
  searchKnowledgeOutput,
} from './mcp.schemas.js';
import { articleMarkdown, askAgent, createArticleDraft, listConversations, proposeFix, readArticle } from './mcp.service.js';

/**
 * One MCP session's view of Parley: the workspace of one API key. Over HTTP a session is one
 * request (the route verified its key); over stdio it is the process, and each call verifies the
 * key again (cached at most PARLEY_AUTH_CACHE_MS, as the API does), so a revoked key stops at once.
 */
export interface McpSession {
  /** The context a call runs with; throws the API's 401/403 when the key no longer admits it. */
  context(): Promise<WorkspaceContext>;
}

/** The MCP error code of a resource that does not exist (the MCP specification's). */
const RESOURCE_NOT_FOUND = -32002;

const INSTRUCTIONS =
  "Parley is a customer-support agent's knowledge base and conversations, for one workspace. Search the knowledge " +
  '(search_knowledge) and read articles (get_article, or the parley://articles/{id} resources as Markdown); ask an ' +
  'agent as a customer would (ask_agent) and read conversations (list_conversations, get_conversation). With a ' +
  'key that has the write scope: draft articles (create_article_draft; nothing is published) and propose a fix of a ' +
  'bad reply with Refine with AI (propose_fix; its drafts wait for review).';

interface Tool<I extends z.ZodObject, O extends z.ZodObject> {
  name: string;
  title: string;
  description: string;
  /** The scope the matching API route requires. */
  scope: Scope;
  input: I;
  output: O;
  annotations: ToolAnnotations;
  run(ctx: WorkspaceContext, args: z.output<I>, signal: AbortSignal): Promise<z.input<O>>;
  /** Resource links sent with the result (the articles it names). */
  links?(result: z.input<O>): ResourceLink[];
}

const READ: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };
const WRITE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };

const articleLink = (id: string, title: string): ResourceLink => ({ type: 'resource_link', uri: articleUri(id), name: title, mimeType: 'text/markdown' });

/** The API's message as a tool error; a failure Parley did not expect is logged and answered as the API's 500. */
function toolError(ctx: WorkspaceContext | undefined, error: unknown, fallbackLog: (error: unknown) => void): CallToolResult {
  const described = describeError(error, ctx?.requestId ?? 'none');
  if (described.unexpected) {
    if (ctx) ctx.log.error({ err: error, reqId: ctx.requestId }, 'MCP tool failed');
    else fallbackLog(error);
  }
  return { content: [{ type: 'text', text: described.message }], isError: true };
}

/** A write tool's audit entry: the record its arguments name (`articleId`, `eventId`, `conversationId`), else what it made; its argument names. */
function auditDetailsOf(tool: string, args: object): AuditDetails {
  const named = (['articleId', 'eventId', 'conversationId'] as const).find((key) => typeof (args as Record<string, unknown>)[key] === 'string');
  return {
    action: `mcp ${tool}`,
    resourceType: named ? named.slice(0, -2) : tool === 'create_article_draft' ? 'article' : tool === 'ask_agent' ? 'conversation' : null,
    resourceId: named ? ((args as Record<string, string>)[named] ?? null) : null,
    fields: Object.keys(args),
  };
}

function registerTool<I extends z.ZodObject, O extends z.ZodObject>(server: McpServer, session: McpSession, log: (error: unknown) => void, tool: Tool<I, O>): void {
  server.registerTool(
    tool.name,
    { title: tool.title, description: tool.description, inputSchema: tool.input, outputSchema: tool.output, annotations: tool.annotations },
    (async (args: z.output<I>, extra: { signal: AbortSignal }): Promise<CallToolResult> => {
      let ctx: WorkspaceContext | undefined;
      try {
        ctx = await session.context();
        requireScope(principalOf(ctx), tool.scope);
        // A write tool's call is one audited action (`mcp <tool>`), as a write route's request is.
        const auditScope = tool.scope === 'write' ? ctx.audit.begin(auditDetailsOf(tool.name, args)) : undefined;
        if (auditScope) ctx = { ...ctx, auditScope };
        const result = await tool.run(ctx, args, extra.signal);
        if (auditScope && !auditScope.recorded) await auditScope.recordAfter(ctx.db, ctx, result);
        return {
          content: [{ type: 'text', text: JSON.stringify(result) }, ...(tool.links?.(result) ?? [])],
          structuredContent: result as Record<string, unknown>,
        };
      } catch (error) {
        return toolError(ctx, error, log);
      }
    }) as never,
  );
}

/** A resource read's failure as an MCP error: not found as the specification's code, the API's message otherwise. */
function resourceError(ctx: WorkspaceContext | undefined, error: unknown, log: (error: unknown) => void): McpError {
  const described = describeError(error, ctx?.requestId ?? 'none');
  if (described.unexpected) {
    if (ctx) ctx.log.error({ err: error, reqId: ctx.requestId }, 'MCP resource read failed');
    else log(error);
  }
  const code = described.statusCode === 404 ? RESOURCE_NOT_FOUND : described.statusCode < 500 ? ErrorCode.InvalidParams : ErrorCode.InternalError;
  return new McpError(code, described.message);
}

function registerResource(
  server: McpServer,
  session: McpSession,
  log: (error: unknown) => void,
  resource: { name: string; template: string; title: string; description: string; mimeType: string; read(ctx: WorkspaceContext, id: string): Promise<string> },
): void {
  server.registerResource(
    resource.name,
    new ResourceTemplate(resource.template, { list: undefined }),
    { title: resource.title, description: resource.description, mimeType: resource.mimeType },
    async (uri, variables): Promise<ReadResourceResult> => {
      let ctx: WorkspaceContext | undefined;
      try {
        ctx = await session.context();
        requireScope(principalOf(ctx), 'read');
        const id = uuidSchema.safeParse(variables.id);
        if (!id.success) throw new McpError(ErrorCode.InvalidParams, `${uri.href}: the id must be a UUID`);
        return { contents: [{ uri: uri.href, mimeType: resource.mimeType, text: await resource.read(ctx, id.data) }] };
      } catch (error) {
        throw error instanceof McpError ? error : resourceError(ctx, error, log);
      }
    },
  );
}

/**
 * The MCP server of one session: Parley's tools (names and arguments fixed, so any MCP client can
 * script them) and resources, each a call of the services the API routes call, with the session's
 * workspace context. `log` records a failure that happened before a context existed.
 */
export function createMcpServer(session: McpSession, log: (error: unknown) => void): McpServer {
  const server = new McpServer({ name: 'parley', title: 'Parley', version }, { instructions: INSTRUCTIONS });

  registerTool(server, session, log, {
    name: 'search_knowledge',
    title: 'Search knowledge',
    description:
      "Searches the workspace's live, active articles as the agent's own retrieval does (POST /v2/knowledge/public/search): " +
      "`botId` narrows it to the folders that agent answers from, `folderId` to a folder and its subfolders. Each hit has the article's id " +
      'and title, its score (higher is better, comparable within one answer) and the matching snippets (HTML: <mark> around matched words).',
    scope: 'read',
    input: searchKnowledgeInput,
    output: searchKnowledgeOutput,
    annotations: READ,
    run: async (ctx, args) => ({ results: (await searchAsClient(ctx, args)).map((hit) => ({ ...presentSearchHit(hit), uri: articleUri(hit.article.id) })) }),
    links: (result) => result.results.map((r) => articleLink(r.article.id, r.article.title)),
  });

  registerTool(server, session, log, {
    name: 'get_article',
    title: 'Get an article',
    description: 'An article (live or draft) by id, with all its fields; `mainKnowledge` is its body. Also readable as the resource parley://articles/{id} (Markdown).',
    scope: 'read',
    input: getArticleInput,
    output: articleOutput,
    annotations: READ,
    run: async (ctx, args) => ({ article: presentArticle(await readArticle(ctx, args.id)), uri: articleUri(args.id) }),
  });

  registerTool(server, session, log, {
    name: 'ask_agent',
    title: 'Ask the agent',
    description:
      'Sends a customer message to an agent and answers its reply, as Generate Answer does (POST /v2/hc-interactions/events/public; ' +
      'needs the write scope, since it stores the conversation): a new conversation unless `conversationId` is given. The result has ' +
      'the reply, the articles it cites, whether the agent handed over to a person, and the reply event id that propose_fix takes.',
    scope: 'write',
    input: askAgentInput,
    output: askAgentOutput,
    annotations: WRITE,
    run: (ctx, args) => askAgent(ctx, args),
    links: (result) => result.citedArticles.map((a) => articleLink(a.id, a.title)),
  });

  registerTool(server, session, log, {
    name: 'list_conversations',
    title: 'List conversations',
    description:
      'Conversations of the last 90 days, newest first (GET /v2/hc-interactions/public): `botId` one agent\'s, `status` those in ' +
      'these statuses (one, or a list), `limit` how many (1 to 100, 50 by default). `hasMore` says there are older ones.',
    scope: 'read',
    input: listConversationsInput,
    output: listConversationsOutput,
    annotations: READ,
    run: (ctx, args) => listConversations(ctx, args),
  });

  registerTool(server, session, log, {
    name: 'get_conversation',
    title: 'Get a conversation',
    description: 'A conversation with its events (customer messages and agent replies, oldest first), as GET /v2/hc-interactions/{id}/public answers it.',
    scope: 'read',
    input: getConversationInput,
    output: conversationOutput,
    annotations: READ,
    run: async (ctx, args) => ({ conversation: await interactionPresented(ctx, args.id) }),
  });

  registerTool(server, session, log, {
    name: 'create_article_draft',
    title: 'Draft an article',
    description:
      'Writes a draft for the team to review; nothing is published (needs the write scope). With `articleId`, a draft of that live ' +
      'article with new `mainKnowledge` (and `title`), its other fields kept: publishing it replaces the article. Without, a draft of ' +
      'a new article: `title` and `parentFolderId` are then required.',
    scope: 'write',
    input: createArticleDraftInput,
    output: articleOutput,
    annotations: WRITE,
    run: async (ctx, args) => {
      const row = await createArticleDraft(ctx, args);
      return { article: presentArticle(row), uri: articleUri(row.id) };
    },
    links: (result) => [articleLink(result.article.id, result.article.title)],
  });

  registerTool(server, session, log, {
    name: 'propose_fix',
    title: 'Propose a fix of a reply',
    description:
      "Refine with AI (needs the write scope): diagnoses an agent reply from a support lead's `feedback`, drafts the fix (prompt, " +
      'article or rule drafts; nothing is published) and replays the customer message with it. The work is a background job: the ' +
      'tool waits for it a while and answers the session; when `finished` is false, read the resource in `poll.resource` until the ' +
      "iteration's status is ready, no_change or failed.",
    scope: 'write',
    input: proposeFixInput,
    output: proposeFixOutput,
    annotations: WRITE,
    run: (ctx, args, signal) => proposeFix(ctx, args, signal),
  });

  registerResource(server, session, log, {
    name: 'article',
    template: ARTICLE_URI,
    title: 'Article',
    description: 'An article of the workspace (live or draft) as Markdown: its title, knowledge, the questions it answers, keywords and its instruction for the agent.',
    mimeType: 'text/markdown',
    read: async (ctx, id) => articleMarkdown(await readArticle(ctx, id)),
  });

  registerResource(server, session, log, {
    name: 'fix-session',
    template: FIX_SESSION_URI,
    title: 'Refine with AI session',
    description: 'A Refine with AI session with its iterations, as GET /v2/fix-review/sessions/{id}/public answers it: what propose_fix says to poll.',
    mimeType: 'application/json',
    read: async (ctx, id) => JSON.stringify(await getSession(ctx, id)),
  });

  return server;
}
