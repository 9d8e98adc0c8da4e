import type { PromptSectionValue, PromptSet } from '../../db/schema/index.js';
import { iso } from '../../http/schemas.js';
import type { AgentWithPrompts } from './agents.repository.js';
import { DEFAULT_PROMPTS } from './default-prompts.js';

/**
 * A prompt as the agent reads it: each enabled section as a `## title` heading and its content,
 * separated by a blank line; an empty string when no section is enabled.
 */
export function serializeSections(sections: readonly PromptSectionValue[]): string {
  return sections
    .filter((s) => s.enabled)
    .map((s) => `## ${s.title}\n${s.content.trim()}`)
    .join('\n\n');
}

/** The four serialized prompt strings of the agent listing. */
export function serializePrompts(prompts: PromptSet) {
  return {
    hcPlanningPrompt: serializeSections(prompts.hcPlanningPrompt),
    hcGuidelinePrompt: serializeSections(prompts.hcGuidelinePrompt),
    hcEmailChannelPrompt: serializeSections(prompts.hcChannelPrompt.filter((s) => s.channel === 'email')),
    hcChatChannelPrompt: serializeSections(prompts.hcChannelPrompt.filter((s) => s.channel === 'chat')),
  };
}

export function presentAgent(agent: AgentWithPrompts) {
  return {
    id: agent.id,
    name: agent.name,
    createdAt: iso(agent.createdAt),
    ...serializePrompts(agent.prompts ?? DEFAULT_PROMPTS),
  };
}
