// The breakdowns of the window: by status, by channel, knowledge folders used, intent rules and
// escalation reasons. Each is a table whose first number also draws as a bar (the bar is for the
// eye; the table's cells carry the values, so the table is its own table view).
import { Paper, SimpleGrid, Table, Title } from '@mantine/core';
import { type ReactNode, useId } from 'react';
import { Empty } from '../../../components/states';
import { TableHead } from '../../../components/table-head';
import type { Analytics } from '../api';
import { formatCount, formatPercent, formatRating } from '../format';

/** The bar under a row's label (a plain element: a table of 20 folders mounts 20 of them). */
const track = { height: 6, marginTop: 2, borderRadius: 3, background: 'var(--mantine-color-blue-8)' } as const;

interface Row {
  key: string;
  label: string;
  /** What the bar draws, as a share of the largest row's. */
  bar: number;
  cells: ReactNode[];
}

function Breakdown({ title, columns, rows, empty }: { title: string; columns: string[]; rows: Row[]; empty: string }) {
  const headingId = useId();
  const max = Math.max(1, ...rows.map((r) => r.bar));
  return (
    <Paper component="section" withBorder p="md" aria-labelledby={headingId}>
      <Title order={2} size="h5" id={headingId} mb="sm">
        {title}
      </Title>
      {rows.length === 0 ? (
        <Empty>{empty}</Empty>
      ) : (
        <Table aria-labelledby={headingId} verticalSpacing={4}>
          <TableHead columns={columns} />
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.key}>
                <Table.Th scope="row" fw={400}>
                  {row.label}
                  <div aria-hidden style={{ ...track, width: `${(row.bar / max) * 100}%` }} />
                </Table.Th>
                {row.cells.map((cell, i) => (
                  <Table.Td key={i}>{cell}</Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Paper>
  );
}

export function Breakdowns({ data }: { data: Analytics }) {
  const comparison = new Map(data.knowledgeUsage.comparison.map((f) => [f.folderId, f.conversations]));
  return (
    <SimpleGrid cols={{ base: 1, lg: 2 }}>
      <Breakdown
        title="By status"
        columns={['Status', 'Conversations', 'Share']}
        empty="No conversations in this window."
        rows={data.statusBreakdown.map((s) => ({ key: s.status, label: s.status, bar: s.count, cells: [formatCount(s.count), formatPercent(s.percentage)] }))}
      />
      <Breakdown
        title="By channel"
        columns={['Channel', 'Conversations', 'Resolved', 'Resolution rate']}
        empty="No conversations in this window."
        rows={data.usageByChannel.map((c) => ({
          key: c.channel,
          label: c.channel === 'chat' ? 'Chat' : c.channel === 'email' ? 'Email' : c.channel,
          bar: c.conversations,
          cells: [formatCount(c.conversations), formatCount(c.resolved), c.conversations ? formatPercent(c.resolved / c.conversations) : '–'],
        }))}
      />
      <Breakdown
        title="Knowledge used"
        columns={['Folder', 'Conversations', 'Previous window']}
        empty="No answer used an article in this window."
        rows={data.knowledgeUsage.current.map((f) => ({ key: f.folderId, label: f.folderTitle, bar: f.conversations, cells: [formatCount(f.conversations), formatCount(comparison.get(f.folderId) ?? 0)] }))}
      />
      <Breakdown
        title="Escalation reasons"
        columns={['Reason', 'Escalated conversations']}
        empty="No conversation was handed over in this window."
        rows={data.escalationReasons.map((r) => ({ key: r.tagId, label: r.tagName, bar: r.count, cells: [formatCount(r.count)] }))}
      />
      <Breakdown
        title="Intent rules"
        columns={['Rule', 'Conversations', 'Resolved', 'Escalated', 'Average CSAT']}
        empty="No intent rule ran in this window."
        rows={data.ruleAnalytics.map((r) => ({
          key: r.ruleId,
          label: r.ruleName,
          bar: r.conversations,
          cells: [
            formatCount(r.conversations),
            `${formatCount(r.resolved)} (${formatPercent(r.resolutionRate)})`,
            `${formatCount(r.escalated)} (${formatPercent(r.escalationRate)})`,
            formatRating(r.averageCsatRating),
          ],
        }))}
      />
    </SimpleGrid>
  );
}
