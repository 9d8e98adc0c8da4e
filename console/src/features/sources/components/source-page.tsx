// One source: its state and failure reason, refresh, the text extracted from it, and the article
// made from it (with the operation and the reason the generation gave).
import { Anchor, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'wouter';
import { Empty, ErrorState, Loading } from '../../../components/states';
import { WriteButton } from '../../../components/write-button';
import { useRefresh, useSource } from '../api';
import { SourceStatus } from './source-status';
import { BackLink } from '../../../components/back-link';
import { operationText } from '../../../components/job-state';

export function SourcePage({ id }: { id: string }) {
  const source = useSource(id);
  const refresh = useRefresh();
  if (source.isPending) return <Loading label="Loading the source…" />;
  if (source.error) return <ErrorState error={source.error} title="The source could not be loaded" />;
  const s = source.data;
  return (
    <Stack>
      <BackLink href="/" label="the sources" />
      <Group justify="space-between" align="start">
        <div>
          <Title order={1} size="h2">
            {s.title || s.url}
          </Title>
          <Text size="sm" c="dimmed">
            {s.source} · {s.mimeType || 'unknown type'} · {s.url}
          </Text>
        </div>
        <WriteButton variant="default" loading={refresh.isPending} onClick={() => refresh.mutate([s.id])}>
          Refresh
        </WriteButton>
      </Group>
      <div>
        <SourceStatus source={s} withReason />
      </div>
      {refresh.error && <ErrorState error={refresh.error} title="The source was not refreshed" />}
      <section aria-label="Article">
        <Title order={2} size="h5" mb={4}>
          Article
        </Title>
        {s.linkedKnowledgeId ? (
          <Text size="sm">
            <Anchor component={Link} href={`~/console/knowledge/articles/${s.linkedKnowledgeId}`}>
              The article made from this source
            </Anchor>
            {s.linkedOperation && ` (${operationText(s.linkedOperation)})`}
            {s.changed && ', and the source changed since'}
            {s.linkedReason && `: ${s.linkedReason}`}
          </Text>
        ) : (
          <Empty>No article was made from this source.</Empty>
        )}
      </section>
      <section aria-label="Extracted text">
        <Title order={2} size="h5" mb={4}>
          Extracted text
        </Title>
        {s.paragraphs.length === 0 ? (
          <Empty>No text extracted{s.linkedJobStatus === 'PENDING' || s.linkedJobStatus === 'IN_PROGRESS' ? ' yet' : ''}.</Empty>
        ) : (
          <Paper withBorder p="sm">
            {s.paragraphs.map((p, i) => (
              <Text key={i} size="sm" mb="xs" style={{ whiteSpace: 'pre-wrap' }}>
                {p}
              </Text>
            ))}
          </Paper>
        )}
      </section>
    </Stack>
  );
}
