import type { PromptSet } from '../../db/schema/index.js';
import { iso } from '../../http/schemas.js';
import { serializePrompts } from './agents.presenter.js';
import type { PromptDraftRow, PromptVersionRow } from './prompts.repository.js';

function arrays(prompts: PromptSet): PromptSet {
  return {
    hcPlanningPrompt: prompts.hcPlanningPrompt,
    hcGuidelinePrompt: prompts.hcGuidelinePrompt,
    hcChannelPrompt: prompts.hcChannelPrompt,
  };
}

/** The agent's current prompts: its latest saved version, or the defaults when it has none. */
export function presentAgentPrompt(agentId: string, current: PromptVersionRow | undefined, defaults: PromptSet) {
  const prompts = current?.prompts ?? defaults;
  return {
    botId: agentId,
    isDefault: current === undefined,
    version: current?.version ?? null,
    versionId: current?.id ?? null,
    createdAt: current ? iso(current.createdAt) : null,
    createdBy: current?.createdBy ?? null,
    ...arrays(prompts),
    serialized: serializePrompts(prompts),
  };
}

/** A saved version in the current-prompt shape, with the draft it was published from. */
export function presentSavedPrompt(agentId: string, row: PromptVersionRow) {
  return { ...presentAgentPrompt(agentId, row, row.prompts), isDefault: false as const, version: row.version, versionId: row.id, createdAt: iso(row.createdAt), draftId: row.draftId };
}

export function presentPromptDraft(row: PromptDraftRow) {
  return {
    id: row.id,
    botId: row.agentId,
    status: row.status as 'draft' | 'published' | 'discarded',
    baseVersion: row.baseVersion,
    note: row.note,
    origin: row.origin,
    publishedVersionId: row.publishedVersionId,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
    createdBy: row.createdBy,
    updatedBy: row.updatedBy,
    ...arrays(row.prompts),
  };
}
