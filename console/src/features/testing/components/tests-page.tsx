// An agent's Tests page: the agent picker, its test cases (by tag, in keyset pages), Run (k times,
// optionally only some tags) and the runs history. /console/tests opens the first agent's.
import { Badge, Button, Card, Group, NumberInput, Stack, Table, TagsInput, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { AgentSelect } from '../../../components/agent-select';
import { Empty, ErrorState, Loading } from '../../../components/states';
import { Pager } from '../../../components/pager';
import { TableHead } from '../../../components/table-head';
import { WriteButton } from '../../../components/write-button';
import { useAgents } from '../../agents/api';
import { type Page, useStartRun, useTestCases } from '../api';
import { describeExpectation } from '../expectation';
import { Runs } from './runs';

function Cases({ agentId }: { agentId: string }) {
  const [tag, setTag] = useState<string>();
  const [typed, setTyped] = useState('');
  const [page, setPage] = useState<Page>({});
  const cases = useTestCases(agentId, tag, page);
  const [, navigate] = useLocation();
  const rows = cases.data?.testCases ?? [];
  const filter = (e: FormEvent) => {
    e.preventDefault();
    setTag(typed.trim() || undefined);
    setPage({});
  };
  return (
    <Stack component="section" aria-label="Test cases">
      <Group justify="space-between" align="end">
        <Title order={2} size="h4">
          Test cases
        </Title>
        <Group align="end">
          <form onSubmit={filter} aria-label="Filter the cases">
            <Group align="end" gap="xs">
              <TextInput label="Tag" placeholder="Any tag" value={typed} onChange={(e) => setTyped(e.currentTarget.value)} w={180} />
              <Button type="submit" variant="default">
                Filter
              </Button>
            </Group>
          </form>
          <WriteButton onClick={() => navigate(`/${agentId}/cases/new`)}>
            New test case
          </WriteButton>
        </Group>
      </Group>
      {cases.isPending && <Loading label="Loading the test cases…" />}
      {cases.error && <ErrorState error={cases.error} title="The test cases could not be loaded" />}
      {cases.data && rows.length === 0 && (
        <Empty>{tag ? `No test case has the tag “${tag}”.` : 'No test case yet: a case is customer messages and what the replies must meet.'}</Empty>
      )}
      {rows.length > 0 && (
        <Table striped aria-label="Test cases">
          <TableHead columns={['Case', 'Turns', 'Expects of the last reply', 'Tags', 'Updated']} />
          <Table.Tbody>
            {rows.map((c) => (
              <Table.Tr key={c.id}>
                <Table.Td>
                  <Link href={`/${agentId}/cases/${c.id}`}>{c.name}</Link>
                </Table.Td>
                <Table.Td>{c.turns.length}</Table.Td>
                <Table.Td>{describeExpectation(c.expect).join('; ') || 'nothing (only that it runs)'}</Table.Td>
                <Table.Td>
                  <Group gap={4}>
                    {c.tags.map((t) => (
                      <Badge key={t} variant="light" color="gray">
                        {t}
                      </Badge>
                    ))}
                  </Group>
                </Table.Td>
                <Table.Td>{new Date(c.updatedAt).toLocaleString()}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Pager
        newer={cases.data?.prevCursor && page.cursor ? () => setPage({ cursor: cases.data?.prevCursor ?? undefined, direction: 'previous' }) : undefined}
        older={cases.data?.nextCursor ? () => setPage({ cursor: cases.data?.nextCursor ?? undefined, direction: 'next' }) : undefined}
      />
    </Stack>
  );
}

/** Queues a run and opens it, where its progress shows. */
function RunCases({ agentId }: { agentId: string }) {
  const start = useStartRun();
  const [k, setK] = useState<number | string>(1);
  const [tags, setTags] = useState<string[]>([]);
  const [, navigate] = useLocation();
  return (
    <Card withBorder component="section" aria-label="Run the cases">
      <Title order={2} size="h4" mb="xs">
        Run the cases
      </Title>
      <Text size="sm" mb="xs">
        Each case is sent as a new conversation through the same answer pipeline as customers&apos; messages (source testsuite, left out of analytics), with actions dry-run.
        With the built-in engine the k runs of a case are identical, so one runs for all.
      </Text>
      <Group align="end">
        <NumberInput label="Runs of each case (k)" min={1} max={10} allowDecimal={false} value={k} onChange={setK} w={180} />
        <TagsInput label="Only cases with any of these tags" placeholder="All cases" value={tags} onChange={setTags} w={320} />
        <WriteButton
          loading={start.isPending}
          onClick={() => start.mutate({ agentId, k: Number(k) || 1, tags }, { onSuccess: (run) => navigate(`/${agentId}/runs/${run.id}`) })}
        >
          Run
        </WriteButton>
      </Group>
      {start.error && <ErrorState error={start.error} title="The run was not started" />}
    </Card>
  );
}

export function TestsPage({ agentId }: { agentId: string | undefined }) {
  const agents = useAgents();
  const [, navigate] = useLocation();
  const shownId = agentId ?? agents.data?.[0]?.id;
  useEffect(() => {
    if (!agentId && shownId) navigate(`/${shownId}`, { replace: true });
  }, [agentId, shownId, navigate]);
  return (
    <Stack>
      <Group justify="space-between" align="end">
        <Title order={1} size="h2">
          Tests
        </Title>
        <AgentSelect agents={agents.data} value={shownId} onChange={(id) => navigate(`/${id}`)} />
      </Group>
      <Text size="sm">
        Customer messages and what the agent&apos;s replies must meet, run before a change goes live: publishing a prompt, an article, a rule or a Refine with AI fix runs
        the cases of the agents it reaches first, and a change that breaks a case passing today is refused unless you publish anyway.
      </Text>
      {agents.isPending && <Loading label="Loading the agents…" />}
      {agents.error && <ErrorState error={agents.error} title="The agents could not be loaded" />}
      {agents.data?.length === 0 && <Empty>No agents yet: create one on the Agents page, then give it test cases here.</Empty>}
      {shownId && (
        <>
          <Cases key={`cases-${shownId}`} agentId={shownId} />
          <RunCases key={`run-${shownId}`} agentId={shownId} />
          <Runs key={`runs-${shownId}`} agentId={shownId} />
        </>
      )}
    </Stack>
  );
}
