// An agent's prompts: the live sections of each (or Parley's defaults), its drafts (edit, compare,
// publish, discard), and its saved versions compared with the live one.
import { Badge, Group, Select, Stack, Tabs, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { DiffView } from '../../../components/diff-view';
import { Empty, ErrorState, Loading } from '../../../components/states';
import { type AgentPrompt, usePrompt, usePromptHistory } from '../api';
import { PromptDrafts } from './prompt-drafts';

const SERIALIZED: [keyof AgentPrompt['serialized'], string][] = [
  ['hcPlanningPrompt', 'Planning prompt'],
  ['hcGuidelinePrompt', 'Guideline prompt'],
  ['hcChatChannelPrompt', 'Chat channel prompt'],
  ['hcEmailChannelPrompt', 'Email channel prompt'],
];

function Sections({ title, sections }: { title: string; sections: { id: string; title: string; content: string; enabled: boolean }[] }) {
  return (
    <section aria-label={title}>
      <Title order={3} size="h5" mb={4}>
        {title}
      </Title>
      {sections.length === 0 && <Empty>No sections.</Empty>}
      {sections.map((s) => (
        <div key={s.id}>
          <Group gap="xs">
            <Text size="sm" fw={600}>
              {s.title}
            </Text>
            {!s.enabled && (
              <Badge size="xs" color="gray">
                Disabled
              </Badge>
            )}
          </Group>
          <Text size="sm" mb="xs" style={{ whiteSpace: 'pre-wrap' }}>
            {s.content}
          </Text>
        </div>
      ))}
    </section>
  );
}

function History({ agentId, current }: { agentId: string; current: AgentPrompt }) {
  const history = usePromptHistory(agentId);
  const [picked, setPicked] = useState<string | null>(null);
  if (history.isPending) return <Loading label="Loading saved versions…" />;
  if (history.error) return <ErrorState error={history.error} title="The saved versions could not be loaded" />;
  if (history.data.length === 0) return <Empty>The prompts were never saved: the agent uses Parley's defaults.</Empty>;
  const chosen = history.data.find((v) => String(v.version) === picked);
  return (
    <Stack gap="xs">
      <Select
        label="Compare a saved version with the current prompts"
        data={history.data.map((v) => ({ value: String(v.version), label: `Version ${v.version}, ${new Date(v.createdAt).toLocaleString()}${v.draftId ? ', from a draft' : ''}` }))}
        value={picked}
        onChange={setPicked}
        w={360}
      />
      {chosen &&
        SERIALIZED.map(([key, label]) => <DiffView key={key} label={label} before={chosen.serialized[key]} after={current.serialized[key]} />)}
    </Stack>
  );
}

export function AgentPrompts({ agentId }: { agentId: string }) {
  const prompt = usePrompt(agentId);
  if (prompt.isPending) return <Loading label="Loading prompts…" />;
  if (prompt.error) return <ErrorState error={prompt.error} title="The prompts could not be loaded" />;
  const p = prompt.data;
  return (
    <Tabs defaultValue="live" keepMounted={false} variant="pills">
      <Tabs.List aria-label="The agent's prompts">
        <Tabs.Tab value="live">Live prompts</Tabs.Tab>
        <Tabs.Tab value="drafts">Drafts</Tabs.Tab>
        <Tabs.Tab value="versions">Versions</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="live" pt="md">
        <Stack>
          <Group gap="xs">
            {p.isDefault ? <Badge color="gray">Parley's default prompts</Badge> : <Badge variant="outline">Version {p.version}</Badge>}
          </Group>
          <Sections title="Planning" sections={p.hcPlanningPrompt} />
          <Sections title="Guidelines" sections={p.hcGuidelinePrompt} />
          <Sections title="Channels" sections={p.hcChannelPrompt.map((s) => ({ ...s, title: `${s.title} (${s.channel})` }))} />
        </Stack>
      </Tabs.Panel>
      <Tabs.Panel value="drafts" pt="md">
        <PromptDrafts agentId={agentId} />
      </Tabs.Panel>
      <Tabs.Panel value="versions" pt="md">
        <History agentId={agentId} current={p} />
      </Tabs.Panel>
    </Tabs>
  );
}
