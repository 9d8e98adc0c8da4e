// The Knowledge page (lazy-loaded): the folder tree beside the picked folder's articles, and an
// article's own page. Paths are under /console/knowledge.
import { Grid, Paper, Text, VisuallyHidden } from '@mantine/core';
import { lazy } from 'react';
import { Route, Switch, useLocation, useParams } from 'wouter';
import { ErrorState } from '../../components/states';
import { usePrefetchFolderArticles, useTree } from './api';
import { ArticlePage } from './components/article-page';
import { FolderArticles } from './components/folder-articles';
import { FolderTree, pathTo } from './components/folder-tree';
import { KnowledgeSearch } from './components/search';

const GeneratePage = lazy(() => import('../generation/routes'));

function Browse() {
  const params = useParams<{ folderId?: string }>();
  const [, navigate] = useLocation();
  usePrefetchFolderArticles(params.folderId);
  const tree = useTree();
  const path = tree.data && params.folderId ? pathTo(tree.data, params.folderId) : [];
  const folder = path.at(-1);
  return (
    <Grid>
      <Grid.Col span={{ base: 12, md: 4 }}>
        <Paper withBorder p="sm">
          <FolderTree selectedId={params.folderId} onSelect={(id) => navigate(id ? `/folders/${id}` : '/')} />
        </Paper>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 8 }}>
        {/* The articles are asked for with the tree, not after it: the folder's title comes from the tree. */}
        {params.folderId && !(tree.data && !folder) && <FolderArticles key={params.folderId} folderId={params.folderId} folder={folder} parents={path.slice(0, -1)} />}
        {!params.folderId && tree.data && tree.data.length > 0 && <Text c="dimmed">Pick a folder to see its articles.</Text>}
        {params.folderId && tree.error && <ErrorState error={tree.error} title="The folder could not be loaded" />}
        {params.folderId && tree.data && !folder && <ErrorState error={new Error(`folder ${params.folderId} not found`)} title="No such folder" />}
      </Grid.Col>
    </Grid>
  );
}

function Article() {
  const { articleId } = useParams<{ articleId: string }>();
  return <ArticlePage key={articleId} id={articleId} />;
}

export default function KnowledgePage() {
  return (
    <>
      <VisuallyHidden component="h1">Knowledge</VisuallyHidden>
      <Switch>
        <Route path="/articles/:articleId" component={Article} />
        <Route path="/search" component={KnowledgeSearch} />
        <Route path="/generate" component={GeneratePage} />
        <Route path="/folders/:folderId" component={Browse} />
        <Route path="/" component={Browse} />
      </Switch>
    </>
  );
}
