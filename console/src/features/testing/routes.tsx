// The Tests page (lazy-loaded), under /console/tests: an agent's test cases, runs and a run's
// results; /console/tests opens the first agent's.
import { Route, Switch, useParams } from 'wouter';
import { CasePage, NewCasePage } from './components/case-page';
import { RunPage } from './components/run-page';
import { TestsPage } from './components/tests-page';

function Agent() {
  const { agentId } = useParams<{ agentId: string }>();
  return <TestsPage key={agentId} agentId={agentId} />;
}

function NewCase() {
  const { agentId } = useParams<{ agentId: string }>();
  return <NewCasePage agentId={agentId} />;
}

function OneCase() {
  const { agentId, caseId } = useParams<{ agentId: string; caseId: string }>();
  return <CasePage key={caseId} agentId={agentId} caseId={caseId} />;
}

function OneRun() {
  const { agentId, runId } = useParams<{ agentId: string; runId: string }>();
  return <RunPage key={runId} agentId={agentId} runId={runId} />;
}

export default function Tests() {
  return (
    <Switch>
      <Route path="/:agentId/cases/new" component={NewCase} />
      <Route path="/:agentId/cases/:caseId" component={OneCase} />
      <Route path="/:agentId/runs/:runId" component={OneRun} />
      <Route path="/:agentId" component={Agent} />
      <Route path="/">
        <TestsPage agentId={undefined} />
      </Route>
    </Switch>
  );
}
