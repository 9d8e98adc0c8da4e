// A table of names and their values (a step's headers or response mapping, the headers a test
// run sent): the name, then the value as code, or as `value` draws it.
import { Code, Table } from '@mantine/core';
import type { ReactNode } from 'react';
import { TableHead } from '../../../components/table-head';

export function NameValueTable({ label, columns, rows, value }: { label: string; columns: [string, string]; rows: [string, unknown][]; value?: (value: unknown) => ReactNode }) {
  return (
    <Table aria-label={label} withTableBorder>
      <TableHead columns={columns} />
      <Table.Tbody>
        {rows.map(([name, v]) => (
          <Table.Tr key={name}>
            <Table.Td>{name}</Table.Td>
            <Table.Td>{value ? value(v) : <Code>{String(v)}</Code>}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
