// The Connections page (lazy-loaded): the providers' connections and importing from one, under
// /console/connections.
import { Route, Switch, useParams } from 'wouter';
import { Empty } from '../../components/states';
import { ConnectionList } from './components/connection-list';
import { DiscoverPage } from './components/discover-page';
import { providerSpec } from './providers';

function One() {
  const { provider } = useParams<{ provider: string }>();
  const spec = providerSpec(provider);
  if (!spec) return <Empty>There is no provider named “{provider}”: Parley imports from Notion, Zendesk, Confluence and Google Drive.</Empty>;
  return <DiscoverPage key={spec.id} spec={spec} />;
}

export default function ConnectionsPage() {
  return (
    <Switch>
      <Route path="/:provider" component={One} />
      <Route path="/" component={ConnectionList} />
    </Switch>
  );
}
