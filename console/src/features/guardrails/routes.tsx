// The Guardrails page (lazy-loaded), under /console/guardrails: the list, a new one, one guardrail.
import { Route, Switch, useParams } from 'wouter';
import { GuardrailList } from './components/guardrail-list';
import { GuardrailPage, NewGuardrail } from './components/guardrail-page';

function One() {
  const { id } = useParams<{ id: string }>();
  return <GuardrailPage key={id} id={id} />;
}

export default function GuardrailsPage() {
  return (
    <Switch>
      <Route path="/new" component={NewGuardrail} />
      <Route path="/:id" component={One} />
      <Route path="/" component={GuardrailList} />
    </Switch>
  );
}
