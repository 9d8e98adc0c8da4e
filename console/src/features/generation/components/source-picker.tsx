// Picking the sources to generate from: ingested sources (by default those not yet made into an
// article), a title filter, select all shown or none, one checkbox each.
import { Checkbox, Group, Stack, Table, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { SelectionBar } from '../../../components/selection-bar';
import { Empty, ErrorState, Loading } from '../../../components/states';
import { TableHead } from '../../../components/table-head';
import { type PickedSource, usePickableSources } from '../api';

export function SourcePicker({ picked, onChange }: { picked: Map<string, PickedSource>; onChange(next: Map<string, PickedSource>): void }) {
  const [notLinked, setNotLinked] = useState(true);
  const [title, setTitle] = useState('');
  const list = usePickableSources({ notLinked, title: title.trim() || undefined });
  const rows = list.data?.documents ?? [];
  const shown = rows.map((s) => ({ id: s.id, title: s.title || s.url }));
  const toggle = (source: PickedSource, on: boolean) => {
    const next = new Map(picked);
    if (on) next.set(source.id, source);
    else next.delete(source.id);
    onChange(next);
  };
  return (
    <Stack gap="xs">
      <Group align="end">
        <TextInput label="Title contains" value={title} onChange={(e) => setTitle(e.currentTarget.value)} />
        <Checkbox label="Only sources not yet made into an article" checked={notLinked} onChange={(e) => setNotLinked(e.currentTarget.checked)} />
      </Group>
      <SelectionBar shown={shown.length} picked={picked.size} onAll={() => onChange(new Map([...picked, ...shown.map((s) => [s.id, s] as const)]))} onNone={() => onChange(new Map())} />
      {list.isPending && <Loading label="Loading sources…" />}
      {list.error && <ErrorState error={list.error} title="The sources could not be loaded" />}
      {list.data && rows.length === 0 && <Empty>No ingested source matches. Add and ingest sources on the Sources page first.</Empty>}
      {rows.length > 0 && (
        <Table aria-label="Sources to generate from" striped>
          <TableHead columns={['Pick', 'Source', 'Article']} />
          <Table.Tbody>
            {rows.map((s) => (
              <Table.Tr key={s.id}>
                <Table.Td>
                  <Checkbox aria-label={`Pick ${s.title || s.url}`} checked={picked.has(s.id)} onChange={(e) => toggle({ id: s.id, title: s.title || s.url }, e.currentTarget.checked)} />
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{s.title || s.url}</Text>
                  {s.title && s.url && s.title !== s.url && (
                    <Text size="xs" c="dimmed">
                      {s.url}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>{s.linkedKnowledgeId ? (s.changed ? 'Made, source changed since' : 'Made') : '—'}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {list.data?.hasMore && <Text size="xs">Showing the 200 most recently updated; narrow the list by title to find others.</Text>}
    </Stack>
  );
}
