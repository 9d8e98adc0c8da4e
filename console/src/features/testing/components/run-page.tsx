// One test run: its state and progress (read every second until it ends), pass@1 and pass^k, and
// each case: its passes of k, whether all passed, whether it regressed, and each failure (the
// expectation, what the reply did, the reply, and its conversation).
import { Alert, Badge, Group, List, Progress, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'wouter';
import { BackLink } from '../../../components/back-link';
import { ErrorState, Loading } from '../../../components/states';
import { TableHead } from '../../../components/table-head';
import { type CaseResult, TRIGGERS, useTestRun } from '../api';
import { percent, RunState } from './runs';

function Failures({ result }: { result: CaseResult }) {
  if (result.failures.length === 0) return <Text size="sm">None</Text>;
  return (
    <List size="sm" spacing={6}>
      {result.failures.map((f, index) => {
        const conversationId = result.interactionIds[f.run - 1] ?? result.interactionIds[0];
        return (
          <List.Item key={index}>
            <Text size="sm">
              Run {f.run}, turn {f.turn}: expected {f.expectation}; {f.actual}
            </Text>
            {f.reply !== null && (
              <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-wrap' }}>
                Reply: {f.reply}
              </Text>
            )}
            {conversationId && (
              <Link href={`~/console/conversations/${conversationId}`} aria-label={`Open the conversation of ${result.name}, run ${f.run}`}>
                Open the conversation
              </Link>
            )}
          </List.Item>
        );
      })}
    </List>
  );
}

/** One figure of the run, a term and its value of the results' description list. */
function Stat({ term, value }: { term: string; value: string }) {
  return (
    <Stack gap={0}>
      <Text component="dt" size="sm" c="dimmed">
        {term}
      </Text>
      <Text component="dd" fw={700} m={0}>
        {value}
      </Text>
    </Stack>
  );
}

export function RunPage({ agentId, runId }: { agentId: string; runId: string }) {
  const run = useTestRun(runId);
  if (run.isPending) return <Loading label="Loading the run…" />;
  if (run.error) return <ErrorState error={run.error} title="The run could not be loaded" />;
  const r = run.data;
  const over = r.state === 'completed' || r.state === 'failed';
  return (
    <Stack>
      <BackLink href={`/${agentId}`} label="the agent's tests" />
      <Group gap="sm">
        <Title order={1} size="h2">
          Test run of {new Date(r.createdAt).toLocaleString()}
        </Title>
        <RunState run={r} />
      </Group>
      <Text size="sm">
        {TRIGGERS[r.trigger]}
        {r.overlay ? ', with drafts overlaid' : ', on what is live'}; each case {r.k} time{r.k === 1 ? '' : 's'}
        {r.deterministic && r.k > 1 ? ' (the built-in engine answers the same way each time: one run stands for all)' : ''}.
        {r.gate && ` The publish ${r.gate.forced ? 'went ahead anyway' : r.gate.blocked ? 'was refused' : 'passed'}.`}
      </Text>
      <Stack gap={4} role="status" aria-label="Progress">
        <Text size="sm">
          {r.completedCases} of {r.caseCount} case{r.caseCount === 1 ? '' : 's'} {over ? 'ran' : 'run so far'}
        </Text>
        {!over && <Progress value={r.caseCount === 0 ? 0 : (100 * r.completedCases) / r.caseCount} aria-label="Cases run" animated />}
      </Stack>
      {r.error && (
        <Alert color="red" title="The run failed" role="alert">
          {r.error}
        </Alert>
      )}
      <Group gap="xl" component="dl" aria-label="Results">
        <Stat term="pass@1 (case runs that passed)" value={percent(r.passRate)} />
        <Stat term={`pass^${r.k} (cases that passed all ${r.k})`} value={percent(r.passKRate)} />
        <Stat term="Regressed since the previous run" value={String(r.regressedCaseIds.length)} />
      </Group>
      {r.cases.length > 0 && (
        <Table aria-label="Cases" verticalSpacing="sm">
          <TableHead columns={['Case', 'Passes', 'All passed', 'Regressed', 'Failures']} />
          <Table.Tbody>
            {r.cases.map((c) => (
              <Table.Tr key={c.caseId}>
                <Table.Td>
                  <Link href={`/${agentId}/cases/${c.caseId}`}>{c.name}</Link>
                </Table.Td>
                <Table.Td>
                  {c.passes} of {c.k}
                </Table.Td>
                <Table.Td>
                  <Badge color={c.passK ? 'teal' : 'red'} variant="light">
                    {c.passK ? 'Passed' : 'Failed'}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  {c.regressed ? (
                    <Badge color="red" variant="filled">
                      Regressed
                    </Badge>
                  ) : (
                    'No'
                  )}
                </Table.Td>
                <Table.Td>
                  <Failures result={c} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
