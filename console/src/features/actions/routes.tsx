// The Actions page (lazy-loaded): actions and attributes by agent, and one of them with its fields,
// agents, external API call steps and test panel, under /console/actions.
import { Route, Switch, useParams } from 'wouter';
import { ActionList } from './components/action-list';
import { ActionPage } from './components/action-page';

function One() {
  const { id } = useParams<{ id: string }>();
  return <ActionPage key={id} id={id} />;
}

export default function ActionsPage() {
  return (
    <Switch>
      <Route path="/:id" component={One} />
      <Route path="/" component={ActionList} />
    </Switch>
  );
}
