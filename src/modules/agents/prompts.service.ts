import { authorOf, emit, inTransaction, type WorkspaceContext } from '../../context.js';
import { publishRequest } from '../../events/events.js';
import type { Db } from '../../db/database.js';
import type { PromptSet } from '../../db/schema/index.js';
import { AppError } from '../../http/errors.js';
import { advancePromptVersion, lockAgent } from './agents.repository.js';
import { requireAgentOrNotAcceptable } from './agents.service.js';
import { DEFAULT_PROMPTS } from './default-prompts.js';
import {
  findPromptDraft,
  findPromptVersion,
  insertPromptDraft,
  insertPromptVersion,
  listPromptDrafts,
  listPromptVersions,
  type PromptDraftRow,
  type PromptDraftStatus,
  type PromptVersionRow,
  updatePromptDraft,
} from './prompts.repository.js';

/** The workspace default every agent starts from: Parley's shipped sections. */
export function workspaceDefaultPrompts(): PromptSet {
  return structuredClone(DEFAULT_PROMPTS);
}

export interface CurrentPrompt {
  agentId: string;
  current: PromptVersionRow | undefined;
  defaults: PromptSet;
}

/** The prompts an agent answers with: its latest saved version, else the workspace default. */
export async function getAgentPrompt(ctx: WorkspaceContext, agentId: string): Promise<CurrentPrompt> {
  const agent = await requireAgentOrNotAcceptable(ctx, agentId);
  const current = agent.promptVersion === null ? undefined : await findPromptVersion(ctx.db, ctx.workspaceId, agentId, agent.promptVersion);
  return { agentId, current, defaults: workspaceDefaultPrompts() };
}

/** Every save is a new, immutable version; it also counts as an update of the agent. */
export async function saveAgentPrompt(ctx: WorkspaceContext, agentId: string, prompts: PromptSet): Promise<CurrentPrompt> {
  await requireAgentOrNotAcceptable(ctx, agentId);
  const current = await inTransaction(ctx, ({ db: tx }) => appendVersion(ctx, tx, agentId, prompts));
  return { agentId, current, defaults: workspaceDefaultPrompts() };
}

async function appendVersion(ctx: WorkspaceContext, db: Db, agentId: string, prompts: PromptSet, draftId?: string) {
  const now = ctx.clock.now();
  const version = await advancePromptVersion(db, ctx.workspaceId, agentId, authorOf(ctx), now);
  if (version === undefined) throw new AppError('not_found', 'agent not found');
  return insertPromptVersion(db, ctx.workspaceId, {
    agentId,
    version,
    prompts,
    createdBy: authorOf(ctx),
    createdAt: now,
    draftId,
  });
}

/** The agent's saved prompt versions, newest first. */
export async function getPromptHistory(ctx: WorkspaceContext, agentId: string): Promise<PromptVersionRow[]> {
  await requireAgentOrNotAcceptable(ctx, agentId);
  return listPromptVersions(ctx.db, ctx.workspaceId, agentId);
}

export interface DraftInput {
  hcPlanningPrompt?: PromptSet['hcPlanningPrompt'];
  hcGuidelinePrompt?: PromptSet['hcGuidelinePrompt'];
  hcChannelPrompt?: PromptSet['hcChannelPrompt'];
  note?: string;
}

function mergeDraft(base: PromptSet, input: DraftInput): PromptSet {
  return {
    hcPlanningPrompt: input.hcPlanningPrompt ?? base.hcPlanningPrompt,
    hcGuidelinePrompt: input.hcGuidelinePrompt ?? base.hcGuidelinePrompt,
    hcChannelPrompt: input.hcChannelPrompt ?? base.hcChannelPrompt,
  };
}

/**
 * A proposed change to an agent's prompts, based on its current version. Prompts the draft does
 * not name are copied from the current ones. `origin` records who proposed it (API, Refine with AI).
 */
export async function createPromptDraft(
  ctx: WorkspaceContext,
  agentId: string,
  input: DraftInput,
  origin = 'API_CREATED',
): Promise<PromptDraftRow> {
  const { current, defaults } = await getAgentPrompt(ctx, agentId);
  return inTransaction(ctx, (tx) => insertPromptDraft(tx.db, ctx.workspaceId, {
    agentId,
    baseVersion: current?.version ?? null,
    prompts: mergeDraft(current?.prompts ?? defaults, input),
    note: input.note ?? '',
    origin,
    by: authorOf(ctx),
    now: ctx.clock.now(),
  }));
}

export async function listDrafts(ctx: WorkspaceContext, agentId: string, status: PromptDraftStatus): Promise<PromptDraftRow[]> {
  await requireAgentOrNotAcceptable(ctx, agentId);
  return listPromptDrafts(ctx.db, ctx.workspaceId, agentId, status);
}

export async function getDraft(ctx: WorkspaceContext, agentId: string, draftId: string): Promise<PromptDraftRow> {
  await requireAgentOrNotAcceptable(ctx, agentId);
  return requireDraft(ctx.db, ctx, agentId, draftId);
}

async function requireDraft(db: Db, ctx: WorkspaceContext, agentId: string, draftId: string, lock = false) {
  const draft = await findPromptDraft(db, ctx.workspaceId, agentId, draftId, { lock });
  if (!draft) throw new AppError('not_found', 'prompt draft not found');
  return draft;
}

function requireOpen(draft: PromptDraftRow): void {
  if (draft.status !== 'draft') throw new AppError('conflict', `prompt draft is already ${draft.status}`);
}

export async function updateDraft(ctx: WorkspaceContext, agentId: string, draftId: string, input: DraftInput): Promise<PromptDraftRow> {
  await requireAgentOrNotAcceptable(ctx, agentId);
  return inTransaction(ctx, async ({ db: tx }) => {
    const draft = await requireDraft(tx, ctx, agentId, draftId, true);
    requireOpen(draft);
    return updatePromptDraft(tx, ctx.workspaceId, draftId, {
      prompts: mergeDraft(draft.prompts, input),
      note: input.note ?? draft.note,
      by: authorOf(ctx),
      now: ctx.clock.now(),
    });
  });
}

/**
 * Publishes a draft as the agent's next prompt version. When a version was saved after the draft
 * was made, publishing would silently drop that change: 409 unless `overwrite`.
 */
/**
 * The publish route's: the test gate first (`publish.requested`, docs/testing.md: 409 when the
 * agent's test cases that pass today fail with the draft, unless `force`), then the publish.
 */
export async function publishDraftGated(ctx: WorkspaceContext, agentId: string, draftId: string, options: { overwrite: boolean; force: boolean }): Promise<CurrentPrompt> {
  requireOpen(await getDraft(ctx, agentId, draftId));
  await emit(ctx, 'publish.requested', publishRequest({ kind: 'prompt_draft', id: draftId }, [agentId], { promptDrafts: [{ agentId, draftId }] }, options.force));
  return publishDraft(ctx, agentId, draftId, options.overwrite);
}

export async function publishDraft(
  ctx: WorkspaceContext,
  agentId: string,
  draftId: string,
  overwrite: boolean,
): Promise<CurrentPrompt> {
  await requireAgentOrNotAcceptable(ctx, agentId);
  const current = await inTransaction(ctx, async ({ db: tx }) => {
    const agent = await lockAgent(tx, ctx.workspaceId, agentId);
    if (!agent) throw new AppError('not_found', 'agent not found');
    const draft = await requireDraft(tx, ctx, agentId, draftId, true);
    requireOpen(draft);
    if (!overwrite && agent.promptVersion !== draft.baseVersion) {
      throw new AppError(
        'conflict',
        `prompts changed since the draft was made (draft based on version ${draft.baseVersion ?? 'default'}, ` +
          `current version ${agent.promptVersion}); publish with overwrite=true to replace them`,
      );
    }
    const version = await appendVersion(ctx, tx, agentId, draft.prompts, draft.id);
    await updatePromptDraft(tx, ctx.workspaceId, draftId, {
      status: 'published',
      publishedVersionId: version.id,
      by: authorOf(ctx),
      now: ctx.clock.now(),
    });
    return version;
  });
  return { agentId, current, defaults: workspaceDefaultPrompts() };
}

/** Discards an open draft; it stays readable with status `discarded`. */
export async function discardDraft(ctx: WorkspaceContext, agentId: string, draftId: string): Promise<PromptDraftRow> {
  await requireAgentOrNotAcceptable(ctx, agentId);
  return inTransaction(ctx, async ({ db: tx }) => {
    const draft = await requireDraft(tx, ctx, agentId, draftId, true);
    requireOpen(draft);
    return updatePromptDraft(tx, ctx.workspaceId, draftId, { status: 'discarded', by: authorOf(ctx), now: ctx.clock.now() });
  });
}
