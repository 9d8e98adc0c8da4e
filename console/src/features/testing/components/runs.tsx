// An agent's test runs, newest first in keyset pages: when, what started it, its state and
// progress, pass@1, pass^k and the cases it regressed; each opens the run.
import { Badge, Stack, Table, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'wouter';
import { Pager } from '../../../components/pager';
import { Empty, ErrorState, Loading } from '../../../components/states';
import { TableHead } from '../../../components/table-head';
import { type Page, type RunSummary, TRIGGERS, useTestRuns } from '../api';

const STATE_COLORS: Record<RunSummary['state'], string> = { queued: 'gray', running: 'blue', completed: 'teal', failed: 'red' };
const STATES: Record<RunSummary['state'], string> = { queued: 'Queued', running: 'Running', completed: 'Completed', failed: 'Failed' };

/** A share as a percentage, or a dash before any case has run. */
export const percent = (rate: number | null) => (rate === null ? '–' : `${Math.round(rate * 1000) / 10}%`);

export function RunState({ run }: { run: Pick<RunSummary, 'state'> }) {
  return (
    <Badge color={STATE_COLORS[run.state]} variant="light">
      {STATES[run.state]}
    </Badge>
  );
}

export function Runs({ agentId }: { agentId: string }) {
  const [page, setPage] = useState<Page>({});
  const runs = useTestRuns(agentId, page);
  const rows = runs.data?.testRuns ?? [];
  return (
    <Stack component="section" aria-label="Runs">
      <Title order={2} size="h4">
        Runs
      </Title>
      {runs.isPending && <Loading label="Loading the runs…" />}
      {runs.error && <ErrorState error={runs.error} title="The runs could not be loaded" />}
      {runs.data && rows.length === 0 && <Empty>No run yet.</Empty>}
      {rows.length > 0 && (
        <Table striped aria-label="Runs">
          <TableHead columns={['Run', 'Started by', 'State', 'Cases', 'k', 'pass@1', 'pass^k', 'Regressed']} />
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={r.id}>
                <Table.Td>
                  <Link href={`/${agentId}/runs/${r.id}`}>{new Date(r.createdAt).toLocaleString()}</Link>
                </Table.Td>
                <Table.Td>
                  {TRIGGERS[r.trigger]}
                  {r.gate ? (r.gate.forced ? ' (published anyway)' : r.gate.blocked ? ' (refused)' : ' (passed)') : ''}
                </Table.Td>
                <Table.Td>
                  <RunState run={r} />
                </Table.Td>
                <Table.Td>
                  {r.completedCases} of {r.caseCount}
                </Table.Td>
                <Table.Td>{r.k}</Table.Td>
                <Table.Td>{percent(r.passRate)}</Table.Td>
                <Table.Td>{percent(r.passKRate)}</Table.Td>
                <Table.Td>{r.regressedCaseIds.length}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Pager
        newer={runs.data?.prevCursor && page.cursor ? () => setPage({ cursor: runs.data?.prevCursor ?? undefined, direction: 'previous' }) : undefined}
        older={runs.data?.nextCursor ? () => setPage({ cursor: runs.data?.nextCursor ?? undefined, direction: 'next' }) : undefined}
      />
    </Stack>
  );
}
