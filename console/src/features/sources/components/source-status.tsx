// A source's state: its latest ingestion job, and the reason when it failed.
import { Text } from '@mantine/core';
import { JobState } from '../../../components/job-state';
import type { Source } from '../api';

export function SourceStatus({ source, withReason = false }: { source: Source; withReason?: boolean }) {
  const status = source.linkedJobStatus;
  return (
    <>
      {status === null ? (
        <JobState status={source.success ? 'COMPLETED' : 'FAILED'} label={source.success ? 'Ingested' : 'Not ingested'} />
      ) : (
        <JobState status={status} failed={status === 'FAILED' || (!source.success && status === 'COMPLETED')} />
      )}
      {withReason && source.error && (
        <Text size="xs" c="red.9" mt={2}>
          {source.error}
        </Text>
      )}
    </>
  );
}
