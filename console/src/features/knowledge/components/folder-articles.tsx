// One folder's articles: the live ones and the open drafts, a page at a time, and a new article.
// The heading says where the folder is in the tree and whether agents search it.
import { Alert, Badge, Box, Button, Group, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import { Empty, ErrorState, Loading } from '../../../components/states';
import { TableHead } from '../../../components/table-head';
import { WriteButton } from '../../../components/write-button';
import { type SnapshotFolder, useCreateArticle, useFolderArticles } from '../api';
import { ArticleForm } from './article-form';
import { INACTIVE_MEANS } from './folder-tree';

function ArticleTable({ folderId, type, caption }: { folderId: string; type: 'live' | 'draft'; caption: string }) {
  const list = useFolderArticles(folderId, type);
  const articles = list.data?.pages.flatMap((page) => page.articles) ?? [];
  return (
    <Box component="section" aria-label={caption} mb="lg">
      <Title order={3} size="h5" mb="xs">
        {caption}
      </Title>
      {list.isPending && <Loading label={`Loading ${caption.toLowerCase()}…`} />}
      {list.error && <ErrorState error={list.error} title={`${caption} could not be loaded`} />}
      {list.data && articles.length === 0 && <Empty>{type === 'live' ? 'No live articles in this folder.' : 'No open drafts in this folder.'}</Empty>}
      {articles.length > 0 && (
        <Table striped highlightOnHover>
          <TableHead columns={['Title', 'Version', 'State', 'Updated']} />
          <Table.Tbody>
            {articles.map((article) => (
              <Table.Tr key={article.id}>
                <Table.Td>
                  <Link href={`/articles/${article.id}`}>{article.title}</Link>
                </Table.Td>
                <Table.Td>{article.version}</Table.Td>
                <Table.Td>
                  <Group gap={4}>
                    {!article.active && <Badge color="gray">Inactive</Badge>}
                    {article.escalation && <Badge color="grape">Escalates</Badge>}
                    {article.isDraft && article.originalArticleId && <Badge color="violet">Edits a live article</Badge>}
                  </Group>
                </Table.Td>
                <Table.Td>{new Date(article.updatedAt).toLocaleString()}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {list.hasNextPage && (
        <Button variant="subtle" size="xs" mt="xs" loading={list.isFetchingNextPage} onClick={() => list.fetchNextPage()}>
          Load more
        </Button>
      )}
    </Box>
  );
}

function NewArticle({ folder, onClose }: { folder: SnapshotFolder; onClose(): void }) {
  const create = useCreateArticle();
  const [, navigate] = useLocation();
  return (
    <ArticleForm
      onSubmit={(content, submitter) =>
        create.mutate(
          { ...content, parentFolderId: folder.id, isDraft: submitter !== 'publish' },
          {
            onSuccess: (article) => {
              onClose();
              navigate(`/articles/${article.id}`);
            },
          },
        )
      }
    >
      {create.error && <ErrorState error={create.error} title="The article was not saved" />}
      <Group>
        <Button type="submit" name="draft" variant="default" loading={create.isPending}>
          Save as draft
        </Button>
        <Button type="submit" name="publish" loading={create.isPending}>
          Publish
        </Button>
      </Group>
    </ArticleForm>
  );
}

/** Whether agents search the folder: not when it or a folder above it is inactive. */
function ActiveState({ folder, parents }: { folder: SnapshotFolder; parents: SnapshotFolder[] }) {
  const offAbove = parents.find((p) => !p.active);
  if (!folder.active) {
    return (
      <Alert color="gray" title="This folder is inactive" mb="sm">
        {INACTIVE_MEANS} Switch it active below the folder tree to have agents use it again.
      </Alert>
    );
  }
  if (offAbove) {
    return (
      <Alert color="gray" title={`Inside the inactive folder “${offAbove.title}”`} mb="sm">
        {INACTIVE_MEANS} This folder is active, but agents use it only once “{offAbove.title}” is active again.
      </Alert>
    );
  }
  return null;
}

/** A folder's articles; `folder` (its title, and what a new article needs) and `parents` (the folders above it, from the top) once the tree is here. */
export function FolderArticles({ folderId, folder, parents }: { folderId: string; folder: SnapshotFolder | undefined; parents: SnapshotFolder[] }) {
  const [creating, setCreating] = useState(false);
  return (
    <Stack gap={0}>
      <Group justify="space-between" mb="sm">
        {folder ? (
          <div>
            <Title order={2} size="h3">
              {folder.title}
            </Title>
            <Text size="sm" c="dimmed">
              {parents.length ? `In ${parents.map((p) => p.title).join(' / ')}` : 'At the top level'}
              {folder.active ? '' : ' · Inactive'}
            </Text>
            {folder.description && (
              <Text size="sm" c="dimmed">
                {folder.description}
              </Text>
            )}
          </div>
        ) : (
          <Loading label="Loading the folder…" />
        )}
        <WriteButton onClick={() => setCreating(true)} disabled={!folder}>
          New article
        </WriteButton>
      </Group>
      {folder && <ActiveState folder={folder} parents={parents} />}
      <ArticleTable folderId={folderId} type="live" caption="Live articles" />
      <ArticleTable folderId={folderId} type="draft" caption="Drafts" />
      {folder && (
        <Modal opened={creating} onClose={() => setCreating(false)} title={`New article in “${folder.title}”`} size="lg">
          <NewArticle folder={folder} onClose={() => setCreating(false)} />
        </Modal>
      )}
    </Stack>
  );
}
