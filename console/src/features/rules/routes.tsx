// The Rules page (lazy-loaded): intent rules, the list and one rule, under /console/rules.
import { Route, Switch, useParams } from 'wouter';
import { RuleList } from './components/rule-list';
import { RulePage } from './components/rule-page';

function One() {
  const { id } = useParams<{ id: string }>();
  return <RulePage key={id} id={id} />;
}

export default function RulesPage() {
  return (
    <Switch>
      <Route path="/:id" component={One} />
      <Route path="/" component={RuleList} />
    </Switch>
  );
}
