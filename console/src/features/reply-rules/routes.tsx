// The Reply rules page (lazy-loaded), under /console/reply-rules: one page, no sub-routes.
import { Route, Switch } from 'wouter';
import { ReplyRulesPage } from './components/reply-rules-page';

export default function ReplyRules() {
  return (
    <Switch>
      <Route path="/" component={ReplyRulesPage} />
    </Switch>
  );
}
