// The Tags page (lazy-loaded), under /console/tags: one page, no sub-routes.
import { Route, Switch } from 'wouter';
import { TagsPage } from './components/tags-page';

export default function Tags() {
  return (
    <Switch>
      <Route path="/" component={TagsPage} />
    </Switch>
  );
}
