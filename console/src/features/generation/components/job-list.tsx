// The generation jobs being followed: each job's state, the operation it chose and why (or why it
// failed), and the article it wrote or found, linked. Polled every second until all have finished.
import { Anchor, Badge, Table, Text } from '@mantine/core';
import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter';
import { JobState, operationText } from '../../../components/job-state';
import { ErrorState, Loading } from '../../../components/states';
import { TableHead } from '../../../components/table-head';
import { isFinished, type KnowledgeJob, useJobArticles, useJobs } from '../api';

function Decision({ job }: { job: KnowledgeJob }) {
  if (job.jobStatus === 'FAILED')
    return (
      <Text size="sm" c="red.9">
        {job.error}
      </Text>
    );
  if (!job.linkedOperation) return <Text size="sm">{job.jobStatus === 'COMPLETED' ? '—' : 'Deciding…'}</Text>;
  return (
    <>
      <Badge variant="outline">{operationText(job.linkedOperation)}</Badge>
      {job.linkedReason && <Text size="sm">{job.linkedReason}</Text>}
    </>
  );
}

/**
 * `sourceTitles`: the titles of the sources the jobs were started for, when this page started them
 * (a job names its source by id only; after a reload the source is named by its id).
 */
export function JobList({ ids, sourceTitles }: { ids: string[]; sourceTitles?: Map<string, string> }) {
  const jobs = useJobs(ids);
  const done = jobs.data?.every(isFinished) ?? false;
  const articleIds = [...new Set((jobs.data ?? []).flatMap((j) => (j.hcArticleId ? [j.hcArticleId] : [])))];
  const articles = useJobArticles(done ? articleIds : []);
  const queryClient = useQueryClient();
  // Finished jobs changed articles and sources: the picker and the other pages read them again.
  useEffect(() => {
    if (done) {
      void queryClient.invalidateQueries({ queryKey: ['knowledge'] });
      void queryClient.invalidateQueries({ queryKey: ['sources'] });
      void queryClient.invalidateQueries({ queryKey: ['generation', 'sources'] });
    }
  }, [done, queryClient]);
  if (jobs.isPending) return <Loading label="Loading the jobs…" />;
  if (jobs.error) return <ErrorState error={jobs.error} title="The jobs could not be loaded" />;
  const titles = new Map((articles.data ?? []).map((a) => [a.id, a]));
  const counts = jobs.data.reduce((n, j) => ({ ...n, [j.jobStatus]: (n[j.jobStatus] ?? 0) + 1 }), {} as Record<string, number>);
  return (
    <>
      <Text size="sm" role="status">
        {done ? 'All jobs finished' : 'Jobs running'}: {counts.COMPLETED ?? 0} completed, {counts.FAILED ?? 0} failed, {(counts.PENDING ?? 0) + (counts.IN_PROGRESS ?? 0)} waiting or running.
      </Text>
      {articles.error && <ErrorState error={articles.error} title="The articles could not be loaded" />}
      <Table aria-label="Generation jobs" striped>
        <TableHead columns={['Source', 'State', 'Operation and reason', 'Article']} />
        <Table.Tbody>
          {jobs.data.map((job) => {
            const article = job.hcArticleId ? titles.get(job.hcArticleId) : undefined;
            return (
              <Table.Tr key={job.id}>
                <Table.Td>
                  {job.documentId ? (
                    <Anchor component={Link} href={`~/console/sources/${job.documentId}`} size="sm">
                      {sourceTitles?.get(job.documentId) ?? `Source ${job.documentId.slice(0, 8)}`}
                    </Anchor>
                  ) : (
                    '—'
                  )}
                </Table.Td>
                <Table.Td miw={130}>
                  <JobState status={job.jobStatus} />
                </Table.Td>
                <Table.Td>
                  <Decision job={job} />
                </Table.Td>
                <Table.Td>
                  {job.hcArticleId ? (
                    <>
                      <Anchor component={Link} href={`~/console/knowledge/articles/${job.hcArticleId}`} size="sm">
                        {article?.title ?? 'The article'}
                      </Anchor>
                      {article?.isDraft && (
                        <Badge size="xs" color="gray" ml={4}>
                          Draft
                        </Badge>
                      )}
                      {job.linkedOperation === 'DO_NOTHING' && <Text size="xs">already covers it</Text>}
                    </>
                  ) : (
                    '—'
                  )}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </>
  );
}
