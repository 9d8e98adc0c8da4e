import type { SelectTagsOutput } from '../../../ai/contracts/select-tags.js';
import type { WorkspaceContext } from '../../../context.js';
import {
  CONVERSATION_STATUS_GROUP_ID,
  type ConversationStatus,
  ESCALATION_REASON_GROUP_ID,
  type EscalationReason,
  SYSTEM_TAG_IDS,
  type TagGroupWithTags,
} from '../../tags/index.js';
import { selectTagsTask } from '../conversations.tasks.js';
import type { StageTrace } from './trace.js';

type TagIndex = Map<string, { tagName: string; group: string }>;

/** Every tag of the workspace's groups by id, with its name and group title. */
export function indexTags(groups: readonly TagGroupWithTags[]): TagIndex {
  const index: TagIndex = new Map();
  for (const g of groups) for (const t of g.tags) index.set(t.id, { tagName: t.tagName, group: g.title });
  return index;
}

/** The conversation's tags as conditions read them: tag names by group title. */
export function tagsByGroup(tagIds: readonly string[], index: TagIndex): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const id of tagIds) {
    const tag = index.get(id);
    if (tag) (out[tag.group] ??= []).push(tag.tagName);
  }
  return out;
}

const STATUS_TAG_IDS = new Set<string>(['Waiting for Customer', 'Resolved by AI', 'Escalated to Human Agent', 'Unresolved', 'No Reply'].map((s) => SYSTEM_TAG_IDS[s as ConversationStatus]));

/** The conversation's tags with exactly one `Conversation Status` tag: the current status. */
export function withStatusTag(tagIds: readonly string[], status: ConversationStatus): string[] {
  return [...tagIds.filter((id) => !STATUS_TAG_IDS.has(id)), SYSTEM_TAG_IDS[status]];
}

const groupTitle = (groups: readonly TagGroupWithTags[], id: string, fallback: string) => groups.find((g) => g.id === id)?.title ?? fallback;

interface Selection {
  inputIds: string[];
  outputIds: string[];
  input: { reasoning: string; chosenTags: Record<string, string[]> };
  output: { reasoning: string; chosenTags: Record<string, string[]> };
}

/** The tags task (a model, or the built-in engine) choosing among the workspace's own tag groups. */
async function selectTags(ctx: WorkspaceContext, trace: StageTrace, message: string, answerText: string | null, groups: readonly TagGroupWithTags[]): Promise<Selection> {
  const own = groups.filter((g) => g.workspaceId !== null && g.tags.length > 0);
  const toChoice = (g: TagGroupWithTags) => ({ title: g.title, prompt: g.prompt, description: g.description, multiselect: g.multiselect, mandatory: g.mandatory, tags: g.tags.map((t) => ({ name: t.tagName, description: t.tagDescription })) });
  const inputGroups = own.filter((g) => !g.isOutputTagGroup);
  const outputGroups = own.filter((g) => g.isOutputTagGroup);
  let selection: SelectTagsOutput = { input: { reasoning: 'No tag group to choose from.', chosenTags: [] }, output: { reasoning: 'No tag group to choose from.', chosenTags: [] } };
  if (own.length) {
    try {
      selection = await trace.run(selectTagsTask, { message, answer: answerText, inputGroups: inputGroups.map(toChoice), outputGroups: outputGroups.map(toChoice) });
    } catch (error) {
      trace.error('tags', error);
    }
  }
  const resolve = (chosen: SelectTagsOutput['input']['chosenTags'], from: TagGroupWithTags[]) => {
    const ids: string[] = [];
    const named: Record<string, string[]> = {};
    for (const c of chosen) {
      const group = from.find((g) => g.title.toLowerCase() === c.group.toLowerCase());
      if (!group) continue;
      const tags = c.tags.map((name) => group.tags.find((t) => t.tagName.toLowerCase() === name.toLowerCase())).filter((t) => t !== undefined);
      const picked = group.multiselect ? tags : tags.slice(0, 1);
      if (!picked.length) continue;
      ids.push(...picked.map((t) => t.id));
      named[group.title] = picked.map((t) => t.tagName);
    }
    return { ids, named };
  };
  const input = resolve(selection.input.chosenTags, inputGroups);
  const output = resolve(selection.output.chosenTags, outputGroups);
  return {
    inputIds: input.ids,
    outputIds: output.ids,
    input: { reasoning: selection.input.reasoning, chosenTags: input.named },
    output: { reasoning: selection.output.reasoning, chosenTags: output.named },
  };
}

export interface TagsInput {
  message: string;
  /** The reply's text; null at a hand-over (output groups describe answers). */
  answerText: string | null;
  groups: readonly TagGroupWithTags[];
  index: TagIndex;
  /** Tags the flow applied. */
  flowTagIds: readonly string[];
  conversationTagIds: readonly string[];
  status: ConversationStatus;
  reason: EscalationReason | null;
}

/**
 * Stage 8: the tags of the reply and of the conversation: the tags task's choice, the flow's tags,
 * then the system groups (the status, and the reason of a hand-over).
 */
export async function tagReply(ctx: WorkspaceContext, trace: StageTrace, input: TagsInput) {
  const selection = await selectTags(ctx, trace, input.message, input.answerText, input.groups);
  const chosen = [...selection.inputIds, ...selection.outputIds, ...input.flowTagIds.filter((id) => input.index.has(id))];
  if (input.reason) chosen.push(SYSTEM_TAG_IDS[input.reason]);
  const reasonTag = input.reason ? { [groupTitle(input.groups, ESCALATION_REASON_GROUP_ID, 'Escalation Reason')]: [input.reason] } : {};
  return {
    replyTagIds: [...new Set([...chosen, SYSTEM_TAG_IDS[input.status]])],
    conversationTagIds: withStatusTag([...new Set([...input.conversationTagIds, ...chosen])], input.status),
    inputTagSelection: selection.input,
    outputTagSelection: {
      reasoning: selection.output.reasoning,
      chosenTags: { ...selection.output.chosenTags, [groupTitle(input.groups, CONVERSATION_STATUS_GROUP_ID, 'Conversation Status')]: [input.status], ...reasonTag },
    },
  };
}
