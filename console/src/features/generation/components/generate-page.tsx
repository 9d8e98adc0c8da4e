// Knowledge generation from sources (POST /v2/knowledge/public/bulk): pick sources, or every
// ingested one not yet made into an article, say where articles may go (any active folder, or one
// agent's) and what the jobs may do, then follow the jobs. Their ids live in the address (?jobs=),
// so a reload or a shared link follows the same jobs.
import { Checkbox, Group, Paper, Radio, Select, Stack, Text, Textarea, Title } from '@mantine/core';
import { type FormEvent, useRef, useState } from 'react';
import { useSearchParams } from 'wouter';
import { BackLink } from '../../../components/back-link';
import { ErrorState } from '../../../components/states';
import { WriteButton } from '../../../components/write-button';
import { useAgents } from '../../agents/api';
import { type Operation, type PickedSource, useGenerate } from '../api';
import { JobList } from './job-list';
import { SourcePicker } from './source-picker';

const OPERATIONS: { value: Operation; label: string }[] = [
  { value: 'ADD_ARTICLE_TO_FOLDER', label: 'Add a new article to a folder' },
  { value: 'UPDATE_ARTICLE', label: 'Update the article that best matches' },
  { value: 'DO_NOTHING', label: 'Do nothing when an article already covers it' },
];

export function GeneratePage() {
  const agents = useAgents();
  const generate = useGenerate();
  const [params, setParams] = useSearchParams();
  const jobIds = (params.get('jobs') ?? '').split(',').filter(Boolean);
  const [mode, setMode] = useState<'picked' | 'unlinked'>('picked');
  const [picked, setPicked] = useState<Map<string, PickedSource>>(new Map());
  const [botId, setBotId] = useState<string | null>(null);
  const [operations, setOperations] = useState<string[]>(OPERATIONS.map((o) => o.value));
  const [instructions, setInstructions] = useState('');
  const [isDraft, setIsDraft] = useState(true);
  const jobsSection = useRef<HTMLElement>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    generate.mutate(
      {
        sources: mode === 'unlinked' ? 'unlinked' : [...picked.values()],
        restrictedOps: operations as Operation[],
        isDraft,
        ...(botId ? { botId } : {}),
        ...(instructions.trim() ? { instructions: instructions.trim() } : {}),
      },
      {
        onSuccess: ({ jobs }) => {
          setParams({ jobs: jobs.join(',') });
          setPicked(new Map());
          jobsSection.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
        },
      },
    );
  };

  return (
    <Stack>
      <BackLink href="/" label="the folders" />
      <Title order={2}>Generate articles from sources</Title>
      <Text size="sm">
        One job per source reads its text, looks for live articles that already cover it and for the active folders, and decides: add a new article to
        the folder that fits, update the article that matches, or do nothing.
      </Text>
      <Paper withBorder p="sm" component="form" aria-label="Generate articles" onSubmit={submit}>
        <Stack>
          <Radio.Group label="Sources" value={mode} onChange={(v) => setMode(v as typeof mode)}>
            <Group mt={4}>
              <Radio value="picked" label="The sources I pick" />
              <Radio value="unlinked" label="Every ingested source not yet made into an article" />
            </Group>
          </Radio.Group>
          {mode === 'picked' && <SourcePicker picked={picked} onChange={setPicked} />}
          <Select
            label="Folders the articles may go to"
            description="The job picks the folder itself, among all active folders or only those of one agent"
            placeholder="Any active folder"
            data={(agents.data ?? []).map((a) => ({ value: a.id, label: `The folders of ${a.name}` }))}
            value={botId}
            onChange={setBotId}
            clearable
            w={420}
          />
          {agents.error && <ErrorState error={agents.error} title="The agents could not be loaded" />}
          <Checkbox.Group label="The jobs may" value={operations} onChange={setOperations}>
            <Stack gap={4} mt={4}>
              {OPERATIONS.map((o) => (
                <Checkbox key={o.value} value={o.value} label={o.label} />
              ))}
            </Stack>
          </Checkbox.Group>
          <Textarea label="Instructions (optional)" description="e.g. focus on pricing" autosize minRows={2} maxLength={5000} value={instructions} onChange={(e) => setInstructions(e.currentTarget.value)} />
          <Checkbox label="Write drafts to review (otherwise articles go live at once)" checked={isDraft} onChange={(e) => setIsDraft(e.currentTarget.checked)} />
          {generate.error && <ErrorState error={generate.error} title="The generation was not started" />}
          <WriteButton type="submit" w="fit-content" loading={generate.isPending} disabled={operations.length === 0 || (mode === 'picked' && picked.size === 0)}>
            Generate articles
          </WriteButton>
        </Stack>
      </Paper>
      <section aria-label="Jobs" ref={jobsSection}>
        <Title order={3} size="h4" mb="xs">
          Jobs
        </Title>
        {jobIds.length === 0 ? <Text size="sm" c="dimmed">No jobs started from this page yet.</Text> : <JobList ids={jobIds} sourceTitles={generate.data?.titles} />}
      </section>
    </Stack>
  );
}
