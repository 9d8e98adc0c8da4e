// The Webhooks page (lazy-loaded), under /console/webhooks: the endpoints and one endpoint with its deliveries.
import { Route, Switch, useParams } from 'wouter';
import { WebhookPage } from './components/webhook-page';
import { WebhooksPage } from './components/webhooks-page';

function One() {
  const { id } = useParams<{ id: string }>();
  return <WebhookPage key={id} id={id} />;
}

export default function Webhooks() {
  return (
    <Switch>
      <Route path="/:id" component={One} />
      <Route path="/" component={WebhooksPage} />
    </Switch>
  );
}
