// The inbox: conversations newest first with the list route's filters (status, channel, source,
// agent, tags, a date window) and keyset paging in both directions.
import { Badge, Group, MultiSelect, Select, Stack, Table, TextInput } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'wouter';
import { Empty, ErrorState, Loading } from '../../../components/states';
import { TableHead } from '../../../components/table-head';
import { useAgents } from '../../agents/api';
import { type InboxFilters, type InboxPage, STATUSES, useInbox, useTags } from '../api';
import { Pager } from '../../../components/pager';

const EMPTY_FILTERS: InboxFilters = { status: [], channel: [], source: [], tagIds: [] };

export function Inbox() {
  const [filters, setFilters] = useState<InboxFilters>(EMPTY_FILTERS);
  const [page, setPage] = useState<InboxPage>({});
  const inbox = useInbox(filters, page);
  const agents = useAgents();
  const tags = useTags();
  const change = (next: Partial<InboxFilters>) => {
    setFilters({ ...filters, ...next });
    setPage({});
  };
  const agentName = new Map((agents.data ?? []).map((a) => [a.id, a.name]));
  const rows = inbox.data?.interactions ?? [];

  return (
    <Stack>
      <Group align="end" gap="sm" component="form" aria-label="Filters" onSubmit={(e) => e.preventDefault()}>
        <MultiSelect label="Status" data={STATUSES} value={filters.status} onChange={(status) => change({ status })} w={240} searchable clearable />
        <MultiSelect label="Channel" data={['chat', 'email']} value={filters.channel} onChange={(channel) => change({ channel })} w={150} searchable />
        <MultiSelect label="Source" data={['api', 'replay', 'testsuite']} value={filters.source} onChange={(source) => change({ source })} w={170} searchable />
        <Select
          label="Agent"
          data={(agents.data ?? []).map((a) => ({ value: a.id, label: a.name }))}
          value={filters.botId ?? null}
          onChange={(botId) => change({ botId: botId ?? undefined })}
          clearable
          w={180}
        />
        <MultiSelect
          label="Tags"
          data={(tags.data ?? []).map((t) => ({ value: t.id, label: t.tagName }))}
          value={filters.tagIds}
          onChange={(tagIds) => change({ tagIds })}
          searchable
          w={200}
        />
        <TextInput type="date" label="From" value={filters.since ?? ''} onChange={(e) => change({ since: e.currentTarget.value || undefined })} />
        <TextInput type="date" label="To" value={filters.until ?? ''} onChange={(e) => change({ until: e.currentTarget.value || undefined })} />
      </Group>
      {(agents.error || tags.error) && <ErrorState error={agents.error ?? tags.error} title="The filters could not be loaded" />}
      {inbox.isPending && <Loading label="Loading conversations…" />}
      {inbox.error && <ErrorState error={inbox.error} title="The conversations could not be loaded" />}
      {inbox.data && rows.length === 0 && <Empty>No conversations match these filters in this window (the last 7 days unless you pick dates).</Empty>}
      {rows.length > 0 && (
        <Table striped highlightOnHover aria-label="Conversations">
          <TableHead columns={['Conversation', 'Status', 'Agent', 'Channel', 'Last message']} />
          <Table.Tbody>
            {rows.map((c) => (
              <Table.Tr key={c.id}>
                <Table.Td>
                  <Link href={`/${c.id}`}>{c.subjectPreview || c.id}</Link>
                </Table.Td>
                <Table.Td>
                  <Badge variant="outline">{c.status}</Badge>
                  {c.humanTakeoverAt && (
                    <Badge variant="light" color="orange" ml={4}>
                      Held by the team
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td>{agentName.get(c.botId) ?? c.botId}</Table.Td>
                <Table.Td>{c.channel}</Table.Td>
                <Table.Td>{new Date(c.lastMessageAt).toLocaleString()}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Pager
        newer={inbox.data?.prevCursor && page.cursor ? () => setPage({ cursor: inbox.data?.prevCursor ?? undefined, direction: 'previous' }) : undefined}
        older={inbox.data?.nextCursor ? () => setPage({ cursor: inbox.data?.nextCursor ?? undefined, direction: 'next' }) : undefined}
      />
    </Stack>
  );
}
