// The Analytics page (lazy-loaded, with the charts' code): an agent's dashboard under
// /console/analytics/{agentId}; /console/analytics opens the first agent's.
import { Route, Switch, useParams } from 'wouter';
import { Dashboard } from './components/dashboard';

function One() {
  const { agentId } = useParams<{ agentId: string }>();
  return <Dashboard agentId={agentId} />;
}

export default function AnalyticsPage() {
  return (
    <Switch>
      <Route path="/:agentId" component={One} />
      <Route path="/">
        <Dashboard agentId={undefined} />
      </Route>
    </Switch>
  );
}
