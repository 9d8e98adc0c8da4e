// The deep crawl (POST /v2/documents/public/deep-crawl/links): a site's pages found from seed URLs
// (robots.txt, sitemaps, links), nothing created; the lead filters and picks some and adds the
// picked ones as web sources (the ingest route), whose ingestion the Sources list then follows.
import { Alert, Anchor, Checkbox, Group, NumberInput, Paper, Stack, Table, Text, Textarea, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { Link } from 'wouter';
import { BackLink } from '../../../components/back-link';
import { SelectionBar } from '../../../components/selection-bar';
import { Empty, ErrorState } from '../../../components/states';
import { TableHead } from '../../../components/table-head';
import { WriteButton } from '../../../components/write-button';
import { useAddUrls, useCrawl } from '../api';

const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

function FoundLinks({ urls, message }: { urls: string[]; message: string }) {
  const add = useAddUrls();
  const [filter, setFilter] = useState('');
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const shown = urls.filter((u) => u.toLowerCase().includes(filter.trim().toLowerCase()));
  const toggle = (url: string, on: boolean) => {
    const next = new Set(picked);
    if (on) next.add(url);
    else next.delete(url);
    setPicked(next);
  };
  return (
    <Stack gap="xs" component="section" aria-label="Pages found">
      <Title order={2} size="h4">
        Pages found
      </Title>
      <Text size="sm" role="status">
        {message}
      </Text>
      {urls.length === 0 ? (
        <Empty>The crawl found no page.</Empty>
      ) : (
        <>
          <Group align="end">
            <TextInput label="Filter links" description="Part of the URL" value={filter} onChange={(e) => setFilter(e.currentTarget.value)} w={320} />
            <SelectionBar shown={shown.length} picked={picked.size} total={urls.length} onAll={() => setPicked(new Set([...picked, ...shown]))} onNone={() => setPicked(new Set())} />
          </Group>
          {shown.length === 0 && <Empty>No link contains “{filter}”.</Empty>}
          {shown.length > 0 && (
            <Table aria-label="Links found" striped>
              <TableHead columns={['Pick', 'URL']} />
              <Table.Tbody>
                {shown.map((url) => (
                  <Table.Tr key={url}>
                    <Table.Td w={60}>
                      <Checkbox aria-label={`Pick ${url}`} checked={picked.has(url)} onChange={(e) => toggle(url, e.currentTarget.checked)} />
                    </Table.Td>
                    <Table.Td style={{ wordBreak: 'break-all' }}>{url}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          {add.error && <ErrorState error={add.error} title="The pages were not added" />}
          {add.data && (
            <Alert color="teal" title="Pages added" role="status">
              {add.data.addedDocumentIds.length} new, {add.data.updatedDocumentIds.length} already known and refreshed. Their ingestion runs on the{' '}
              <Anchor component={Link} href="/">
                Sources list
              </Anchor>
              .
            </Alert>
          )}
          <WriteButton w="fit-content" disabled={picked.size === 0} loading={add.isPending} onClick={() => add.mutate([...picked], { onSuccess: () => setPicked(new Set()) })}>
            Add {picked.size} picked {picked.size === 1 ? 'page' : 'pages'} as sources
          </WriteButton>
        </>
      )}
    </Stack>
  );
}

export function CrawlPage() {
  const crawl = useCrawl();
  const [seeds, setSeeds] = useState('');
  const [limit, setLimit] = useState<number | string>(250);
  const [maxDepth, setMaxDepth] = useState<number | string>(3);
  const [include, setInclude] = useState('');
  const [exclude, setExclude] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    crawl.mutate({
      links: lines(seeds),
      limit: Number(limit),
      maxDepth: Number(maxDepth),
      ...(lines(include).length ? { include: lines(include) } : {}),
      ...(lines(exclude).length ? { exclude: lines(exclude) } : {}),
    });
  };
  return (
    <Stack>
      <BackLink href="/" label="the sources" />
      <Title order={1} size="h2">
        Crawl a site
      </Title>
      <Text size="sm">
        Finds the pages of a site from its address: robots.txt (obeyed) and the sitemaps it names, then the links of each page, on the same site and
        below the address's folder. Nothing is added until you pick pages.
      </Text>
      <Paper withBorder p="sm" component="form" aria-label="Crawl a site" onSubmit={submit}>
        <Stack gap="xs">
          <Textarea label="Site URLs" description="Where to start, one per line (at most 20)" autosize minRows={1} required value={seeds} onChange={(e) => setSeeds(e.currentTarget.value)} />
          <Group align="start" grow>
            <NumberInput label="Most pages" min={1} max={5000} value={limit} onChange={setLimit} />
            <NumberInput label="Depth" description="Links followed from a start page (0: the start pages and sitemaps only)" min={0} max={10} value={maxDepth} onChange={setMaxDepth} />
          </Group>
          <Group align="start" grow>
            <Textarea label="Only paths matching (optional)" description="Globs, one per line, e.g. /help/**" autosize minRows={1} value={include} onChange={(e) => setInclude(e.currentTarget.value)} />
            <Textarea label="Skip paths matching (optional)" description="Globs, one per line, e.g. /blog/**" autosize minRows={1} value={exclude} onChange={(e) => setExclude(e.currentTarget.value)} />
          </Group>
          {crawl.error && <ErrorState error={crawl.error} title="The site was not crawled" />}
          <WriteButton type="submit" w="fit-content" loading={crawl.isPending}>
            Crawl
          </WriteButton>
          {crawl.isPending && (
            <Text size="sm" role="status">
              Crawling… this can take up to a minute on a large site.
            </Text>
          )}
        </Stack>
      </Paper>
      {crawl.data && <FoundLinks key={crawl.submittedAt} urls={crawl.data.data} message={crawl.data.message} />}
    </Stack>
  );
}
