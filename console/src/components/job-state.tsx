// A background job's state as a badge (pending, in progress, completed, failed), coloured so that a
// failure stands out and labelled so that it reads without colour.
import { Badge } from '@mantine/core';

export type JobStatus = 'PENDING' | 'IN_PROGRESS' | 'COMPLETED' | 'FAILED';

export function JobState({ status, label, failed = status === 'FAILED' }: { status: JobStatus; label?: string; failed?: boolean }) {
  const color = failed ? 'red.9' : status === 'COMPLETED' ? 'teal.9' : 'gray';
  return <Badge color={color}>{label ?? status.replace('_', ' ').toLowerCase()}</Badge>;
}

/** An operation as the wire names it (ADD_ARTICLE_TO_FOLDER), in words (add article to folder). */
export const operationText = (operation: string) => operation.replace(/_/g, ' ').toLowerCase();
