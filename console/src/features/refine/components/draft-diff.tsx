// What a change's article draft would change in what is live: the live article it was made from (a
// new article against nothing). A prompt draft's diff is the Agents page's PromptDraftDiff.
import { Anchor, Stack, Text } from '@mantine/core';
import { Link } from 'wouter';
import { DiffView } from '../../../components/diff-view';
import { ErrorState, Loading } from '../../../components/states';
import { type Article, useArticle } from '../../knowledge/api';
import { FIELDS as ARTICLE_FIELDS } from '../../knowledge/components/versions';

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
