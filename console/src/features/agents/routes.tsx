// The Agents page (lazy-loaded): the list and one agent, under /console/agents.
import { Route, Switch, useParams } from 'wouter';
import { AgentList } from './components/agent-list';
import { AgentPage } from './components/agent-page';

function One() {
  const { id } = useParams<{ id: string }>();
  return <AgentPage key={id} id={id} />;
}

export default function AgentsPage() {
  return (
    <Switch>
      <Route path="/:id" component={One} />
      <Route path="/" component={AgentList} />
    </Switch>
  );
}
