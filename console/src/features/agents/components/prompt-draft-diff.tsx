// A prompt draft against the agent's live prompt: the planning, guideline and channel sections of
// each as text (a heading and its content per section), line by line. Used on the agent's page and
// by Refine with AI.
import { Text } from '@mantine/core';
import { DiffView } from '../../../components/diff-view';
import { ErrorState, Loading } from '../../../components/states';
import { usePrompt, usePromptDraft } from '../api';

type Section = { title: string; content: string; enabled: boolean; channel?: string };

/** A prompt's sections as text, one heading and its content per section, each ending its line (so a
 * section added at the end does not mark the one before it as changed). */
function sectionsText(sections: Section[]): string {
  return sections
    .map((s) => `## ${s.title}${s.channel ? ` (${s.channel})` : ''}${s.enabled ? '' : ' [disabled]'}\n${s.content}`)
    .map((text) => `${text}\n`)
    .join('\n');
}

export function PromptDraftDiff({ agentId, draftId }: { agentId: string; draftId: string }) {
  const draft = usePromptDraft(agentId, draftId);
  const live = usePrompt(agentId);
  if (draft.isPending || live.isPending) return <Loading label="Loading the prompt draft and the live prompt…" />;
  if (draft.error || live.error) return <ErrorState error={draft.error ?? live.error} title="The prompt draft could not be compared" />;
  const d = draft.data;
  const l = live.data;
  return (
    <>
      <Text size="sm" mb="xs">
        Draft of the agent's prompts, made from {d.baseVersion === null ? "Parley's defaults" : `version ${d.baseVersion}`}; live is{' '}
        {l.isDefault ? "Parley's defaults" : `version ${l.version}`}.
      </Text>
      <DiffView label="Planning" before={sectionsText(l.hcPlanningPrompt)} after={sectionsText(d.hcPlanningPrompt)} />
      <DiffView label="Guidelines" before={sectionsText(l.hcGuidelinePrompt)} after={sectionsText(d.hcGuidelinePrompt)} />
      <DiffView label="Channels" before={sectionsText(l.hcChannelPrompt)} after={sectionsText(d.hcChannelPrompt)} />
    </>
  );
}
