// What discovery found, as rows to pick: a filter on the title and where it is, a checkbox per row,
// and importing the picked ones (registered as sources, then ingested). Rows imported from this page
// leave the list, as discovery leaves out what was imported.
import { Alert, Anchor, Checkbox, Group, Stack, Table, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { SelectionBar } from '../../../components/selection-bar';
import { Empty, ErrorState } from '../../../components/states';
import { TableHead } from '../../../components/table-head';
import { WriteButton } from '../../../components/write-button';
import { IngestFailed, registeredIds, useImport } from '../api';
import { type ProviderSpec, type ResourceRow } from '../providers';

/** Rows drawn at once: a large workspace lists thousands; the filter narrows them. */
const MOST_ROWS = 300;

export function ResourcePicker({ spec, rows, onImported }: { spec: ProviderSpec; rows: ResourceRow[]; onImported(ids: string[]): void }) {
  const importing = useImport(spec.id);
  const [filter, setFilter] = useState('');
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const [done, setDone] = useState<Set<string>>(new Set());
  const left = rows.filter((r) => !done.has(r.id));
  const needle = filter.trim().toLowerCase();
  const matching = left.filter((r) => `${r.title} ${r.where}`.toLowerCase().includes(needle));
  const shown = matching.slice(0, MOST_ROWS);
  const grouped = rows.some((r) => r.where);
  const toggle = (id: string, on: boolean) => setPicked((current) => new Set([...current].filter((p) => p !== id).concat(on ? [id] : [])));
  const run = () => {
    const chosen = left.filter((r) => picked.has(r.id));
    // Registered rows are imported (discovery leaves them out from now on), even when ingesting failed.
    const registered = (ids: string[]) => {
      setDone(new Set([...done, ...chosen.map((r) => r.id)]));
      setPicked(new Set());
      onImported(ids);
    };
    importing.mutate(
      chosen.map((r) => r.register),
      {
        onSuccess: (result) => registered(registeredIds(result)),
        onError: (error) => {
          if (error instanceof IngestFailed) registered(registeredIds(error.registered));
        },
      },
    );
  };
  if (rows.length === 0) return <Empty>{spec.label} lists nothing this connection can read that is not imported already.</Empty>;
  return (
    <Stack gap="xs">
      <Group align="end">
        <TextInput label="Filter resources" description={grouped ? 'Part of the title or of where it is' : 'Part of the title'} value={filter} onChange={(e) => setFilter(e.currentTarget.value)} w={320} />
        <SelectionBar shown={shown.length} picked={picked.size} total={left.length} onAll={() => setPicked(new Set([...picked, ...shown.map((r) => r.id)]))} onNone={() => setPicked(new Set())} />
      </Group>
      {left.length === 0 && <Empty>Everything listed was imported.</Empty>}
      {left.length > 0 && shown.length === 0 && <Empty>No resource matches “{filter}”.</Empty>}
      {matching.length > shown.length && (
        <Text size="sm">
          Showing the first {shown.length} of {matching.length}; the filter narrows them.
        </Text>
      )}
      {shown.length > 0 && (
        <Table aria-label={`${spec.label} resources`} striped>
          <TableHead columns={['Pick', 'Title', 'Type', ...(grouped ? ['In'] : [])]} />
          <Table.Tbody>
            {shown.map((row) => (
              <Table.Tr key={row.id}>
                <Table.Td w={60}>
                  <Checkbox aria-label={`Pick ${row.title}`} checked={picked.has(row.id)} onChange={(e) => toggle(row.id, e.currentTarget.checked)} />
                </Table.Td>
                <Table.Td>
                  <Anchor href={row.originalUrl} target="_blank" rel="noreferrer" size="sm">
                    {row.title}
                  </Anchor>
                </Table.Td>
                <Table.Td>{row.kind}</Table.Td>
                {grouped && <Table.Td>{row.where}</Table.Td>}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {importing.error && <ErrorState error={importing.error} title={importing.error instanceof IngestFailed ? 'Registered, not ingested' : 'Nothing was imported'} />}
      {importing.data && (
        <Alert color="teal" role="status" title="Imported">
          {importing.data.addedDocumentIds.length} new {importing.data.addedDocumentIds.length === 1 ? 'source' : 'sources'}, {importing.data.updatedDocumentIds.length}{' '}
          already known and refreshed.
        </Alert>
      )}
      <WriteButton w="fit-content" disabled={picked.size === 0} loading={importing.isPending} onClick={run}>
        Import {picked.size} picked as {picked.size === 1 ? 'a source' : 'sources'}
      </WriteButton>
    </Stack>
  );
}
