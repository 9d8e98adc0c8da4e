// The Sources page (lazy-loaded): the list and one source, under /console/sources.
import { Route, Switch, useParams } from 'wouter';
import { CrawlPage } from './components/crawl-page';
import { SourceList } from './components/source-list';
import { SourcePage } from './components/source-page';

function One() {
  const { id } = useParams<{ id: string }>();
  return <SourcePage key={id} id={id} />;
}

export default function SourcesPage() {
  return (
    <Switch>
      <Route path="/crawl" component={CrawlPage} />
      <Route path="/:id" component={One} />
      <Route path="/" component={SourceList} />
    </Switch>
  );
}
