// An article's saved versions: the list, a diff between any two, and revert to one.
import { Button, Group, Select, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import { DiffView } from '../../../components/diff-view';
import { Empty, ErrorState, Loading } from '../../../components/states';
import { TableHead } from '../../../components/table-head';
import { WriteButton } from '../../../components/write-button';
import { type Article, useHistory, useRevertArticle, useVersion } from '../api';

/** The fields a diff shows, each as text (lists one item a line); Refine with AI diffs its drafts with them too. */
export const FIELDS: [string, (article: Article) => string][] = [
  ['Title', (a) => a.title],
  ['Knowledge', (a) => a.mainKnowledge],
  ['Agent instruction', (a) => a.agentInstruction],
  ['Questions', (a) => a.questions.join('\n')],
  ['Keywords', (a) => a.keywords.join('\n')],
  ['Escalation', (a) => (a.escalation ? 'hands over' : 'does not hand over')],
];

function Compare({ article, from, to }: { article: Article; from: number; to: number }) {
  const before = useVersion(article.id, from);
  const after = useVersion(article.id, to);
  if (before.isPending || after.isPending) return <Loading label="Loading both versions…" />;
  if (before.error || after.error) return <ErrorState error={before.error ?? after.error} title="A version could not be loaded" />;
  return (
    <Stack gap={0} aria-label={`Differences from version ${from} to version ${to}`} role="region">
      {FIELDS.map(([label, text]) => (
        <DiffView key={label} label={label} before={text(before.data)} after={text(after.data)} />
      ))}
    </Stack>
  );
}

export function Versions({ article }: { article: Article }) {
  const history = useHistory(article.id);
  const revert = useRevertArticle();
  const versions = history.data?.versions ?? [];
  const [from, setFrom] = useState<string | null>(null);
  const [to, setTo] = useState<string | null>(null);
  const options = versions.map((v) => ({ value: String(v.version), label: `Version ${v.version}: ${v.title}` }));
  const fromVersion = from ?? (versions[1] ? String(versions[1].version) : null);
  const toVersion = to ?? (versions[0] ? String(versions[0].version) : null);

  if (history.isPending) return <Loading label="Loading versions…" />;
  if (history.error) return <ErrorState error={history.error} title="The versions could not be loaded" />;
  if (versions.length === 0) return <Empty>No saved versions.</Empty>;
  return (
    <Stack>
      <Table>
        <TableHead columns={['Version', 'Title', 'Saved', 'By key', <VisuallyHidden key="actions">Actions</VisuallyHidden>]} />
        <Table.Tbody>
          {versions.map((v) => (
            <Table.Tr key={v.version}>
              <Table.Td>{v.version === history.data.currentVersion ? `${v.version} (current)` : v.version}</Table.Td>
              <Table.Td>{v.title}</Table.Td>
              <Table.Td>{new Date(v.createdAt).toLocaleString()}</Table.Td>
              <Table.Td>{v.createdBy ?? '—'}</Table.Td>
              <Table.Td>
                {v.version !== history.data.currentVersion && !article.isDraftPublished && (
                  <WriteButton
                    size="xs"
                    variant="default"
                    loading={revert.isPending && revert.variables?.version === v.version}
                    onClick={() => revert.mutate({ id: article.id, version: v.version })}
                  >
                    Revert to version {v.version}
                  </WriteButton>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {revert.error && <ErrorState error={revert.error} title="The article was not reverted" />}
      {versions.length > 1 ? (
        <>
          <Group align="end">
            <Select label="Compare version" data={options} value={fromVersion} onChange={setFrom} allowDeselect={false} />
            <Select label="with version" data={options} value={toVersion} onChange={setTo} allowDeselect={false} />
            {(from || to) && (
              <Button variant="subtle" onClick={() => (setFrom(null), setTo(null))}>
                Latest two
              </Button>
            )}
          </Group>
          {fromVersion && toVersion && <Compare article={article} from={Number(fromVersion)} to={Number(toVersion)} />}
        </>
      ) : (
        <Text size="sm" c="dimmed">
          One version so far: a diff needs two.
        </Text>
      )}
    </Stack>
  );
}
