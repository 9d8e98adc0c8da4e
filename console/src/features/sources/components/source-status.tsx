// A source's state: its latest ingestion job, and the reason when it failed.
import { Badge, Text } from '@mantine/core';
import type { Source } from '../api';

export function SourceStatus({ source, withReason = false }: { source: Source; withReason?: boolean }) {
  const status = source.linkedJobStatus;
  const label = status === null ? (source.success ? 'Ingested' : 'Not ingested') : status.replace('_', ' ').toLowerCase();
  const color = status === 'FAILED' || (!source.success && status === 'COMPLETED') ? 'red.9' : status === 'COMPLETED' ? 'teal.9' : 'gray';
  return (
    <>
      <Badge color={color}>{label}</Badge>
      {withReason && source.error && (
        <Text size="xs" c="red.9" mt={2}>
          {source.error}
        </Text>
      )}
    </>
  );
}
