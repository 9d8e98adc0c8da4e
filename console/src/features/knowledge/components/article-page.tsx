// One article: its content, editing (a new version, or a draft), publishing a draft (a 409 says
// the live article changed since; publish anyway overwrites), the diff of a draft against the live
// article, the saved versions, and the folder it is in (moving it to another is a new version).
import { Alert, Badge, Box, Button, Group, List, Modal, Stack, Tabs, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import { ApiError } from '../../../api/client';
import { DiffView } from '../../../components/diff-view';
import { Markdown } from '../../../components/markdown';
import { GateRefusal, isGateRefusal } from '../../../components/gate-refusal';
import { Empty, ErrorState, Loading } from '../../../components/states';
import { WriteButton } from '../../../components/write-button';
import { type Article, type ArticleContent, contentOf, useArticle, useCreateDraft, useMoveArticle, usePublishDraft, useTree, useUpdateArticle } from '../api';
import { ArticleForm } from './article-form';
import { MoveForm } from './folder-picker';
import { pathTo } from './folder-tree';
import { Versions } from './versions';
import { BackLink } from '../../../components/back-link';

function stateOf(article: Article): { label: string; color: string } {
  if (!article.isDraft) return { label: 'Live', color: 'teal.9' };
  if (article.isDraftPublished) return { label: 'Published draft', color: 'gray' };
  return { label: 'Draft', color: 'violet' };
}

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Box>
      <Text fw={600} size="sm">
        {label}
      </Text>
      {children}
    </Box>
  );
}

function ArticleView({ article }: { article: Article }) {
  return (
    <Stack gap="md">
      <Field label="Knowledge">
        <Markdown text={article.mainKnowledge} />
      </Field>
      <Field label="Agent instruction">{article.agentInstruction ? <Text size="sm">{article.agentInstruction}</Text> : <Empty>None.</Empty>}</Field>
      <Field label="Questions">
        {article.questions.length ? (
          <List size="sm">
            {article.questions.map((q) => (
              <List.Item key={q}>{q}</List.Item>
            ))}
          </List>
        ) : (
          <Empty>None.</Empty>
        )}
      </Field>
      <Field label="Keywords">{article.keywords.length ? <Text size="sm">{article.keywords.join(', ')}</Text> : <Empty>None.</Empty>}</Field>
      <Field label="Escalation">
        <Text size="sm">{article.escalation ? 'The agent hands over to a person after answering.' : 'The agent answers without handing over.'}</Text>
      </Field>
    </Stack>
  );
}

/** Edit a live article (save a new version, or save the change as a draft) or an open draft. */
function ArticleEditor({ article, onDone }: { article: Article; onDone(): void }) {
  const update = useUpdateArticle();
  const draft = useCreateDraft();
  const [, navigate] = useLocation();
  const submit = (content: ArticleContent, submitter: string | undefined) => {
    if (submitter === 'draft') {
      draft.mutate({ id: article.id, content }, { onSuccess: (created) => navigate(`/articles/${created.id}`) });
    } else {
      update.mutate({ id: article.id, content }, { onSuccess: onDone });
    }
  };
  const error = update.error ?? draft.error;
  return (
    <ArticleForm initial={contentOf(article)} onSubmit={submit}>
      {error && <ErrorState error={error} title="The article was not saved" />}
      <Group>
        <Button type="submit" name="save" loading={update.isPending}>
          {article.isDraft ? 'Save draft' : 'Save as new version'}
        </Button>
        {!article.isDraft && (
          <Button type="submit" name="draft" variant="default" loading={draft.isPending}>
            Save as draft
          </Button>
        )}
        <Button variant="subtle" onClick={onDone}>
          Cancel
        </Button>
      </Group>
    </ArticleForm>
  );
}

/** What moving does, as the API does it: publishing a draft of a live article leaves the live one in its folder. */
function moveNote(article: Article): string {
  if (!article.isDraft) return 'The move is saved as a new version of the article.';
  if (article.originalArticleId) return 'Only the draft moves: the live article it was made from stays in its folder, also once the draft is published.';
  return 'The draft moves; publishing it makes the live article in that folder.';
}

/** Moves the article to another folder, picked by its path in the tree. */
function MoveArticle({ article, onDone }: { article: Article; onDone(): void }) {
  const tree = useTree();
  const move = useMoveArticle();
  if (tree.isPending) return <Loading label="Loading folders…" />;
  if (tree.error) return <ErrorState error={tree.error} title="The folders could not be loaded" />;
  return (
    <MoveForm
      folders={tree.data}
      description={moveNote(article)}
      current={article.parentFolderId}
      submitLabel="Move article"
      errorTitle="The article was not moved"
      pending={move.isPending}
      error={move.error}
      onMove={(target, refused) => move.mutate({ id: article.id, parentFolderId: target }, { onSuccess: onDone, onError: refused })}
    />
  );
}

/** The folder the article is in, by its path, linked; and **Move to…** while the article can change. */
function ArticleFolder({ article }: { article: Article }) {
  const tree = useTree();
  const [moving, setMoving] = useState(false);
  const path = tree.data ? pathTo(tree.data, article.parentFolderId) : [];
  const name = path.length ? path.map((f) => f.title).join(' / ') : tree.isPending ? 'Loading…' : article.parentFolderId;
  return (
    <Group gap="xs">
      <Text size="sm">
        Folder: <Link href={`/folders/${article.parentFolderId}`}>{name}</Link>
        {path.some((f) => !f.active) && ' (inactive: agents do not search this article)'}
      </Text>
      {tree.error && <ErrorState error={tree.error} title="The folders could not be loaded" />}
      {!article.isDraftPublished && (
        <WriteButton size="xs" variant="default" onClick={() => setMoving(true)}>
          Move to…
        </WriteButton>
      )}
      <Modal opened={moving} onClose={() => setMoving(false)} title={`Move “${article.title}”`} size="lg">
        <MoveArticle article={article} onDone={() => setMoving(false)} />
      </Modal>
    </Group>
  );
}

function Publish({ draft }: { draft: Article }) {
  const publish = usePublishDraft();
  const [, navigate] = useLocation();
  const gated = isGateRefusal(publish.error);
  const stale = publish.error instanceof ApiError && publish.error.status === 409 && !gated;
  // The draft's page re-renders as a published draft (without this component) once the refreshed
  // article arrives, which may be before mutate's own callbacks would run; the promise settles
  // regardless (a failure is shown from the mutation's state).
  const run = (overwrite: boolean, force = false) =>
    publish
      .mutateAsync({ id: draft.id, overwrite, force })
      .then((live) => navigate(`/articles/${live.id}`))
      .catch(() => undefined);
  return (
    <Stack gap="xs">
      <Group>
        <WriteButton onClick={() => run(false)} loading={publish.isPending && !publish.variables?.overwrite}>
          Publish
        </WriteButton>
        {stale && (
          <WriteButton color="orange" onClick={() => run(true)} loading={publish.isPending && publish.variables?.overwrite}>
            Publish anyway (overwrite the live article)
          </WriteButton>
        )}
      </Group>
      <GateRefusal error={publish.error} pending={publish.isPending} onForce={() => run(publish.variables?.overwrite ?? false, true)} />
      {publish.error && !gated && <ErrorState error={publish.error} title={stale ? 'The live article changed since this draft was made' : 'The draft was not published'} />}
    </Stack>
  );
}

/** What publishing a draft would change in the live article it was made from. */
function DraftAgainstLive({ draft, liveId }: { draft: Article; liveId: string }) {
  const live = useArticle(liveId);
  if (live.isPending) return <Loading label="Loading the live article…" />;
  if (live.error) return <ErrorState error={live.error} title="The live article could not be loaded" />;
  return (
    <Stack gap={0}>
      <Text size="sm" mb="sm">
        Made from version {draft.originalArticleVersion} of <Link href={`/articles/${liveId}`}>the live article</Link>, now at version {live.data.version}.
      </Text>
      <DiffView label="Title" before={live.data.title} after={draft.title} />
      <DiffView label="Knowledge" before={live.data.mainKnowledge} after={draft.mainKnowledge} />
      <DiffView label="Agent instruction" before={live.data.agentInstruction} after={draft.agentInstruction} />
      <DiffView label="Questions" before={live.data.questions.join('\n')} after={draft.questions.join('\n')} />
      <DiffView label="Keywords" before={live.data.keywords.join('\n')} after={draft.keywords.join('\n')} />
    </Stack>
  );
}

export function ArticlePage({ id }: { id: string }) {
  const article = useArticle(id);
  const [editing, setEditing] = useState(false);
  if (article.isPending) return <Loading label="Loading the article…" />;
  if (article.error) return <ErrorState error={article.error} title="The article could not be loaded" />;
  const a = article.data;
  const state = stateOf(a);
  const openDraft = a.isDraft && !a.isDraftPublished;
  return (
    <Stack>
      <BackLink href={`/folders/${a.parentFolderId}`} label="the folder" />
      <Group justify="space-between" align="start">
        <div>
          <Title order={2}>{a.title}</Title>
          <Group gap="xs" mt={4}>
            <Badge color={state.color}>{state.label}</Badge>
            <Badge variant="outline">Version {a.version}</Badge>
            {!a.active && <Badge color="gray">Inactive</Badge>}
            <Text size="xs" c="dimmed">
              Updated {new Date(a.updatedAt).toLocaleString()}
            </Text>
          </Group>
        </div>
        {!editing && !a.isDraftPublished && <WriteButton onClick={() => setEditing(true)}>Edit</WriteButton>}
      </Group>
      <ArticleFolder article={a} />
      {a.isDraftPublished && <Alert color="gray">This draft was published and can no longer change.</Alert>}
      {openDraft && <Publish draft={a} />}
      <Tabs defaultValue="article" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="article">Article</Tabs.Tab>
          {openDraft && a.originalArticleId && <Tabs.Tab value="against-live">Changes against live</Tabs.Tab>}
          <Tabs.Tab value="versions">Versions</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="article" pt="md">
          {editing ? <ArticleEditor article={a} onDone={() => setEditing(false)} /> : <ArticleView article={a} />}
        </Tabs.Panel>
        {openDraft && a.originalArticleId && (
          <Tabs.Panel value="against-live" pt="md">
            <DraftAgainstLive draft={a} liveId={a.originalArticleId} />
          </Tabs.Panel>
        )}
        <Tabs.Panel value="versions" pt="md">
          <Versions article={a} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
