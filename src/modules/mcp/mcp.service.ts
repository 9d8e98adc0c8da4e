import { setTimeout as sleep } from 'node:timers/promises';
import type { z } from 'zod';
import type { WorkspaceContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { answerEventPresented, CONVERSATION_LIMITS, getEvent, interactionPagePresented } from '../conversations/index.js';
import { type ArticleRow, createArticle, createDraftFromLive, getArticle } from '../knowledge/index.js';
import { createIteration, getSession, RUNNING_STATUSES } from '../refine/index.js';
import {
  articleUri,
  type askAgentInput,
  type askAgentOutput,
  type createArticleDraftInput,
  fixSessionUri,
  type listConversationsInput,
  type proposeFixInput,
  type proposeFixOutput,
} from './mcp.schemas.js';

type Ctx = WorkspaceContext;

/** How often propose_fix reads its iteration while it waits for it. */
const FIX_POLL_MS = 250;

/** An article of the workspace, live or draft (404 as the routes answer it). */
export async function readArticle(ctx: Ctx, id: string): Promise<ArticleRow> {
  const row = await getArticle(ctx, id);
  if (!row) throw new AppError('not_found', 'article not found');
  return row;
}

/** An article as Markdown: its title as a heading, its knowledge, then what customers ask and the instruction for the agent. */
export function articleMarkdown(row: ArticleRow): string {
  const parts = [`# ${row.title}`, row.mainKnowledge.trim()];
  if (row.questions.length) parts.push(['## Questions customers ask', ...row.questions.map((q) => `- ${q}`)].join('\n'));
  if (row.keywords.length) parts.push(`Keywords: ${row.keywords.join(', ')}`);
  if (row.agentInstruction.trim()) parts.push(`## Instruction for the agent\n\n${row.agentInstruction.trim()}`);
  return `${parts.join('\n\n')}\n`;
}

/**
 * ask_agent: Generate Answer's service with a customer message, in a new conversation of the agent
 * unless one is given; the reply (none under a NO_REPLY rule or while a person holds the
 * conversation), the articles it cites and the hand-over flag.
 */
export async function askAgent(ctx: Ctx, input: z.output<typeof askAgentInput>): Promise<z.input<typeof askAgentOutput>> {
  const events = await answerEventPresented(ctx, { content: input.message, role: 'user', botId: input.botId, interactionId: input.conversationId });
  // The customer's message, then the agent's reply when it answered.
  const [customer, reply = null] = events;
  if (!customer) throw new Error('Generate Answer stored no event');
  return {
    conversationId: customer.interactionId,
    replyEventId: reply?.id ?? null,
    reply: reply?.message ?? null,
    replyType: reply?.type ?? null,
    handover: reply?.handover ?? false,
    escalationReason: reply?.escalationReason ?? null,
    citedArticles: (reply?.usedArticles ?? []).map((a) => ({ ...a, uri: articleUri(a.id) })),
    events,
  };
}

/** list_conversations: the newest conversations of the last 90 days (the list route's longest window). */
export async function listConversations(ctx: Ctx, input: z.output<typeof listConversationsInput>) {
  const until = new Date(ctx.clock.now().getTime() + 1);
  const since = new Date(until.getTime() - CONVERSATION_LIMITS.window);
  const page = await interactionPagePresented(ctx, { since, until, limit: input.limit, direction: 'next', botId: input.botId, status: input.status });
  return { interactions: page.interactions, hasMore: page.hasMore };
}

/**
 * create_article_draft: with `articleId`, a draft of that live article (its other fields kept) that
 * replaces it when published; without, a draft of a new article in `parentFolderId`. Nothing is
 * published: the team reviews drafts in the console or through the API.
 */
export async function createArticleDraft(ctx: Ctx, input: z.output<typeof createArticleDraftInput>): Promise<ArticleRow> {
  if (input.articleId) {
    if (input.parentFolderId) throw new AppError('bad_request', 'parentFolderId: a draft of an article stays in its folder; leave parentFolderId out with articleId');
    const live = await readArticle(ctx, input.articleId);
    const { agentInstruction, questions, keywords, escalation } = live;
    return createDraftFromLive(ctx, live.id, { title: input.title ?? live.title, mainKnowledge: input.mainKnowledge, agentInstruction, questions, keywords, escalation });
  }
  if (!input.title) throw new AppError('bad_request', 'title: required for a new article (without articleId)');
  if (!input.parentFolderId) throw new AppError('bad_request', 'parentFolderId: required for a new article (without articleId)');
  return createArticle(ctx, {
    title: input.title,
    mainKnowledge: input.mainKnowledge,
    agentInstruction: '',
    questions: [],
    keywords: [],
    escalation: false,
    parentFolderId: input.parentFolderId,
    isDraft: true,
  });
}

/**
 * propose_fix: Refine with AI on an agent reply with a support lead's note. The iteration is a job;
 * this waits for it up to PARLEY_MCP_FIX_WAIT_SECONDS (or until the client cancels), reading the
 * session as a client would, and answers the session as it then is: `finished` false says to poll.
 */
export async function proposeFix(ctx: Ctx, input: z.output<typeof proposeFixInput>, signal?: AbortSignal): Promise<z.input<typeof proposeFixOutput>> {
  const event = await getEvent(ctx, input.eventId);
  if (!event) throw new AppError('not_found', 'event not found');
  const { sessionId, iterationId } = await createIteration(ctx, event.conversationId, event.id, input.feedback);
  // Where this process works the queue (embedded), the job starts now rather than at the next poll.
  ctx.queue.wake('refine.iterate');
  const deadline = ctx.clock.now().getTime() + ctx.config.mcp.fixWaitMs;
  const statusIn = (session: Awaited<ReturnType<typeof getSession>>) => session.iterations.find((i) => i.id === iterationId)?.status ?? 'queued';
  let session = await getSession(ctx, sessionId);
  while (RUNNING_STATUSES.includes(statusIn(session)) && !signal?.aborted) {
    const left = deadline - ctx.clock.now().getTime();
    if (left <= 0) break;
    await sleep(Math.min(FIX_POLL_MS, left), undefined, { signal }).catch(() => undefined);
    session = await getSession(ctx, sessionId);
  }
  const status = statusIn(session);
  return {
    sessionId,
    iterationId,
    status,
    finished: !RUNNING_STATUSES.includes(status),
    poll: { resource: fixSessionUri(sessionId), route: `GET /v2/fix-review/sessions/${sessionId}/public` },
    session,
  };
}
