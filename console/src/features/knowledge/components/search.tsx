// Knowledge search as an agent runs it (POST /v2/knowledge/public/search): ranked live articles
// with their scores and where they matched, for the whole workspace or one agent's folders.
import { Badge, Button, Group, List, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, Fragment, useState } from 'react';
import { Link } from 'wouter';
import { Empty, ErrorState, Loading } from '../../../components/states';
import { useAgents } from '../../agents/api';
import { type SearchResult, useKnowledgeSearch } from '../api';
import { BackLink } from '../../../components/back-link';

const FIELD_LABELS: Record<SearchResult['highlights'][number]['field'], string> = {
  title: 'Title',
  questions: 'Questions',
  keywords: 'Keywords',
  mainKnowledge: 'Knowledge',
};

/** The API's snippet (escaped text, matches in <mark>) as text and <mark> elements, never as HTML. */
function Snippet({ html }: { html: string }) {
  const unescape = (text: string) => text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  const parts = html.split(/(<mark>.*?<\/mark>)/g);
  return (
    <>
      {parts.map((part, i) =>
        part.startsWith('<mark>') ? <mark key={i}>{unescape(part.slice(6, -7))}</mark> : <Fragment key={i}>{unescape(part)}</Fragment>,
      )}
    </>
  );
}

export function KnowledgeSearch() {
  const agents = useAgents();
  const [text, setText] = useState('');
  const [agentId, setAgentId] = useState<string | null>(null);
  const [submitted, setSubmitted] = useState<{ query: string; botId?: string }>({ query: '' });
  const search = useKnowledgeSearch(submitted.query, submitted.botId);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted({ query: text.trim(), botId: agentId ?? undefined });
  };
  const results = search.data?.results ?? [];
  return (
    <Stack>
      <BackLink href="/" label="the folders" />
      <Title order={2}>Search knowledge</Title>
      <Text size="sm" c="dimmed">
        Ranks live, active articles for a question the way an agent finds them.
      </Text>
      <form onSubmit={submit} aria-label="Knowledge search">
        <Group align="end">
          <TextInput label="Question" required value={text} onChange={(e) => setText(e.currentTarget.value)} w={360} />
          <Select
            label="As the agent"
            placeholder="The whole workspace"
            data={(agents.data ?? []).map((a) => ({ value: a.id, label: a.name }))}
            value={agentId}
            onChange={setAgentId}
            clearable
            w={220}
          />
          <Button type="submit">Search</Button>
        </Group>
      </form>
      {search.isFetching && <Loading label="Searching…" />}
      {search.error && <ErrorState error={search.error} title="The search failed" />}
      {search.data && results.length === 0 && <Empty>No live article matches this question.</Empty>}
      {results.length > 0 && (
        <List listStyleType="none" spacing="sm" aria-label="Results">
          {results.map((result, rank) => (
            <List.Item key={result.article.id}>
              <Paper withBorder p="sm">
                <Group gap="xs">
                  <Text fw={600}>
                    {rank + 1}. <Link href={`/articles/${result.article.id}`}>{result.article.title}</Link>
                  </Text>
                  <Badge variant="outline">Score {result.score.toFixed(3)}</Badge>
                </Group>
                {result.highlights.map((h) => (
                  <Text key={h.field} size="sm">
                    <Text span fw={600} size="sm">
                      {FIELD_LABELS[h.field]}:
                    </Text>{' '}
                    <Snippet html={h.snippet} />
                  </Text>
                ))}
              </Paper>
            </List.Item>
          ))}
        </List>
      )}
    </Stack>
  );
}
