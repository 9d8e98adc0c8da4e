// The sources of the workspace with the list route's filters and keyset paging both ways.
import { Anchor, Checkbox, Group, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'wouter';
import { Empty, ErrorState, Loading } from '../../../components/states';
import { TableHead } from '../../../components/table-head';
import { type SourceFilters, type SourcePage, useSources } from '../api';
import { AddSources } from './add-sources';
import { SourceStatus } from './source-status';
import { Pager } from '../../../components/pager';

const KINDS = ['web', 'files', 'notion', 'zendesk', 'confluence', 'googledrive'] as const;

export function SourceList() {
  const [filters, setFilters] = useState<SourceFilters>({});
  const [page, setPage] = useState<SourcePage>({});
  const list = useSources(filters, page);
  const change = (next: Partial<SourceFilters>) => {
    setFilters({ ...filters, ...next });
    setPage({});
  };
  const rows = list.data?.documents ?? [];
  const first = rows[0];
  const last = rows[rows.length - 1];
  const backwards = page.direction === 'previous';
  return (
    <Stack>
      <Group justify="space-between" align="end">
        <Title order={1} size="h2">
          Sources
        </Title>
        <Anchor component={Link} href="~/console/knowledge/generate" size="sm">
          Make articles from sources
        </Anchor>
      </Group>
      <AddSources />
      <Group align="end" gap="sm" component="form" aria-label="Filters" onSubmit={(e) => e.preventDefault()}>
        <Select label="Kind" data={[...KINDS]} value={filters.source ?? null} onChange={(v) => change({ source: (v ?? undefined) as SourceFilters['source'] })} clearable w={150} />
        <Select
          label="Ingestion"
          data={[
            { value: 'true', label: 'Succeeded' },
            { value: 'false', label: 'Failed or waiting' },
          ]}
          value={filters.success ?? null}
          onChange={(v) => change({ success: (v ?? undefined) as SourceFilters['success'] })}
          clearable
          w={180}
        />
        <Select
          label="Made into an article"
          data={[
            { value: 'true', label: 'Yes' },
            { value: 'false', label: 'No' },
          ]}
          value={filters.linkedKnowledge ?? null}
          onChange={(v) => change({ linkedKnowledge: (v ?? undefined) as SourceFilters['linkedKnowledge'] })}
          clearable
          w={180}
        />
        <TextInput label="Title contains" value={filters.title ?? ''} onChange={(e) => change({ title: e.currentTarget.value || undefined })} />
        <TextInput label="URL contains" value={filters.url ?? ''} onChange={(e) => change({ url: e.currentTarget.value || undefined })} />
        <Checkbox label="Changed since its article" checked={filters.changed === 'true'} onChange={(e) => change({ changed: e.currentTarget.checked ? 'true' : undefined })} />
      </Group>
      {list.isPending && <Loading label="Loading sources…" />}
      {list.error && <ErrorState error={list.error} title="The sources could not be loaded" />}
      {list.data && rows.length === 0 && <Empty>No sources match.</Empty>}
      {rows.length > 0 && (
        <Table striped highlightOnHover aria-label="Sources">
          <TableHead columns={['Source', 'Kind', 'State', 'Article', 'Updated']} />
          <Table.Tbody>
            {rows.map((s) => (
              <Table.Tr key={s.id}>
                <Table.Td>
                  <Link href={`/${s.id}`}>{s.title || s.url}</Link>
                  {s.title && s.title !== s.url && (
                    <Text size="xs" c="dimmed">
                      {s.url}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>{s.source}</Table.Td>
                <Table.Td>
                  <SourceStatus source={s} withReason />
                </Table.Td>
                <Table.Td>{s.linkedKnowledgeId ? (s.changed ? 'Linked, changed since' : 'Linked') : '—'}</Table.Td>
                <Table.Td>{new Date(s.updatedAt).toLocaleString()}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Pager
        newer={first && page.cursor && (!backwards || list.data?.hasMore) ? () => setPage({ cursor: first.id, cursorUpdatedAt: first.updatedAt, direction: 'previous' }) : undefined}
        older={last && (backwards || list.data?.hasMore) ? () => setPage({ cursor: last.id, cursorUpdatedAt: last.updatedAt, direction: 'next' }) : undefined}
      />
    </Stack>
  );
}
