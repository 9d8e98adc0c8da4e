// What a change's draft would change in what is live: an article draft against the live article it
// was made from (a new article against nothing), a prompt draft against the agent's live prompt.
import { Anchor, Stack, Text } from '@mantine/core';
import { Link } from 'wouter';
import { DiffView } from '../../../components/diff-view';
import { ErrorState, Loading } from '../../../components/states';
import { usePrompt } from '../../agents/api';
import { type Article, useArticle } from '../../knowledge/api';
import { FIELDS as ARTICLE_FIELDS } from '../../knowledge/components/versions';
import { usePromptDraft } from '../api';

type Section = { title: string; content: string; enabled: boolean; channel?: string };

/** A prompt's sections as text, one heading and its content per section, for a line diff. */
function sectionsText(sections: Section[]): string {
  return sections
    .map((s) => `## ${s.title}${s.channel ? ` (${s.channel})` : ''}${s.enabled ? '' : ' [disabled]'}\n${s.content}`)
    .join('\n\n');
}

function ArticleFields({ live, draft }: { live: Article | undefined; draft: Article }) {
  return (
    <Stack gap={0}>
      {ARTICLE_FIELDS.map(([label, text]) => (
        <DiffView key={label} label={label} before={live ? text(live) : ''} after={text(draft)} />
      ))}
    </Stack>
  );
}

function AgainstLiveArticle({ draft, liveId }: { draft: Article; liveId: string }) {
  const live = useArticle(liveId);
  if (live.isPending) return <Loading label="Loading the live article…" />;
  if (live.error) return <ErrorState error={live.error} title="The live article could not be loaded" />;
  return (
    <>
      <Text size="sm" mb="xs">
        Draft of{' '}
        <Anchor component={Link} href={`~/console/knowledge/articles/${liveId}`}>
          {live.data.title}
        </Anchor>
        , made from version {draft.originalArticleVersion}; live is version {live.data.version}.
      </Text>
      <ArticleFields live={live.data} draft={draft} />
    </>
  );
}

export function ArticleDraftDiff({ draftId }: { draftId: string }) {
  const draft = useArticle(draftId);
  if (draft.isPending) return <Loading label="Loading the article draft…" />;
  if (draft.error) return <ErrorState error={draft.error} title="The article draft could not be loaded" />;
  if (draft.data.originalArticleId) return <AgainstLiveArticle draft={draft.data} liveId={draft.data.originalArticleId} />;
  return (
    <>
      <Text size="sm" mb="xs">
        A new article, live once published.
      </Text>
      <ArticleFields live={undefined} draft={draft.data} />
    </>
  );
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
