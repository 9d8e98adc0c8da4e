// A titled region around one chart with a "Show as table" toggle: the drawing is for the eye (hidden
// from screen readers, with a label saying where the numbers are), the table holds every value.
import { Button, Group, Paper, Table, Title } from '@mantine/core';
import { type ReactNode, useId, useState } from 'react';
import { TableHead } from '../../../components/table-head';

export interface TableView {
  columns: string[];
  rows: { key: string; cells: ReactNode[] }[];
}

/** `readable`: the drawing itself carries its values for screen readers (the heatmap's cells), so it is not hidden. */
export function ChartFrame({ title, table, children, actions, readable = false }: { title: string; table: TableView; children: ReactNode; actions?: ReactNode; readable?: boolean }) {
  const [asTable, setAsTable] = useState(false);
  const headingId = useId();
  return (
    <Paper component="section" withBorder p="md" aria-labelledby={headingId}>
      <Group justify="space-between" mb="sm" wrap="nowrap">
        <Title order={2} size="h5" id={headingId}>
          {title}
        </Title>
        <Group gap="xs">
          {actions}
          <Button size="compact-xs" variant="default" aria-pressed={asTable} onClick={() => setAsTable(!asTable)}>
            {asTable ? 'Show as chart' : 'Show as table'}
          </Button>
        </Group>
      </Group>
      {asTable ? (
        <Table.ScrollContainer minWidth={300} maxHeight={360}>
          <Table striped aria-label={title} stickyHeader>
            <TableHead columns={table.columns} />
            <Table.Tbody>
              {table.rows.map((row) => (
                <Table.Tr key={row.key}>
                  {row.cells.map((cell, i) => (i === 0 ? <Table.Th key={i} scope="row">{cell}</Table.Th> : <Table.Td key={i}>{cell}</Table.Td>))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : readable ? (
        children
      ) : (
        <div role="img" aria-label={`${title}: chart (Show as table gives every value)`}>
          <div aria-hidden>{children}</div>
        </div>
      )}
    </Paper>
  );
}
