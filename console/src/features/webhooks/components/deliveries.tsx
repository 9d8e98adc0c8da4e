// An endpoint's deliveries, newest first in keyset pages, optionally of one status: event type,
// status, attempts, the last answer and when; redeliver sends a delivery's message again.
import { Badge, Group, Select, Stack, Table, Title } from '@mantine/core';
import { useState } from 'react';
import { ErrorState, Empty, Loading } from '../../../components/states';
import { Pager } from '../../../components/pager';
import { TableHead } from '../../../components/table-head';
import { WriteButton } from '../../../components/write-button';
import { type Delivery, DELIVERY_STATUSES, type DeliveryPage, type DeliveryStatus, useDeliveries, useRedeliver } from '../api';

const STATUS_COLORS: Record<DeliveryStatus, string> = { pending: 'yellow', delivered: 'teal', failed: 'red' };

/** The last attempt's outcome in words: the receiver's status and time, or why no answer came. */
export function outcomeOf(d: Delivery): string {
  if (d.attempts === 0) return 'Not sent yet';
  const answer = d.responseStatus === null ? 'no answer' : `HTTP ${d.responseStatus}`;
  const time = d.responseTimeMs === null ? '' : ` in ${d.responseTimeMs} ms`;
  return `${answer}${time}${d.lastError ? `: ${d.lastError}` : ''}`;
}

function Redeliver({ delivery }: { delivery: Delivery }) {
  const redeliver = useRedeliver();
  return (
    <Stack gap={4}>
      <WriteButton
        size="xs"
        variant="light"
        aria-label={`Redeliver ${delivery.eventType} of ${new Date(delivery.createdAt).toLocaleString()}`}
        loading={redeliver.isPending}
        onClick={() => redeliver.mutate({ id: delivery.webhookId, deliveryId: delivery.id })}
      >
        Redeliver
      </WriteButton>
      {redeliver.error && <ErrorState error={redeliver.error} title="Not redelivered" />}
    </Stack>
  );
}

export function Deliveries({ webhookId }: { webhookId: string }) {
  const [status, setStatus] = useState<DeliveryStatus>();
  const [page, setPage] = useState<DeliveryPage>({});
  const deliveries = useDeliveries(webhookId, status, page);
  const rows = deliveries.data?.deliveries ?? [];
  return (
    <Stack component="section" aria-label="Deliveries">
      <Group justify="space-between" align="end">
        <Title order={2} size="h4">
          Deliveries
        </Title>
        <Select
          label="Status"
          data={Object.entries(DELIVERY_STATUSES).map(([value, label]) => ({ value, label }))}
          value={status ?? null}
          onChange={(value) => {
            setStatus((value as DeliveryStatus | null) ?? undefined);
            setPage({});
          }}
          clearable
          placeholder="Any"
          w={160}
        />
      </Group>
      {deliveries.isPending && <Loading label="Loading the deliveries…" />}
      {deliveries.error && <ErrorState error={deliveries.error} title="The deliveries could not be loaded" />}
      {deliveries.data && rows.length === 0 && <Empty>No deliveries{status ? ` ${DELIVERY_STATUSES[status].toLowerCase()}` : ''} yet.</Empty>}
      {rows.length > 0 && (
        <Table striped aria-label="Deliveries">
          <TableHead columns={['Event', 'Status', 'Attempts', 'Last answer', 'Created', 'Actions']} />
          <Table.Tbody>
            {rows.map((d) => (
              <Table.Tr key={d.id}>
                <Table.Td>
                  {d.eventType}
                  {d.redeliveryOf && ' (redelivery)'}
                </Table.Td>
                <Table.Td>
                  <Badge color={STATUS_COLORS[d.status]} variant="light">
                    {DELIVERY_STATUSES[d.status]}
                  </Badge>
                </Table.Td>
                <Table.Td>{d.attempts}</Table.Td>
                <Table.Td>{outcomeOf(d)}</Table.Td>
                <Table.Td>{new Date(d.createdAt).toLocaleString()}</Table.Td>
                <Table.Td>
                  <Redeliver delivery={d} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Pager
        newer={deliveries.data?.prevCursor && page.cursor ? () => setPage({ cursor: deliveries.data?.prevCursor ?? undefined, direction: 'previous' }) : undefined}
        older={deliveries.data?.nextCursor ? () => setPage({ cursor: deliveries.data?.nextCursor ?? undefined, direction: 'next' }) : undefined}
      />
    </Stack>
  );
}
