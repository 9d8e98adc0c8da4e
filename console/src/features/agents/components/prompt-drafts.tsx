// An agent's prompt drafts: the open ones to pick from, a new draft copied from the live prompts,
// and the picked one's editor.
import { Alert, Group, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Empty, ErrorState, Loading } from '../../../components/states';
import { WriteButton } from '../../../components/write-button';
import { useCreatePromptDraft, usePromptDraft, usePromptDrafts, useSavePromptDraft } from '../api';
import { PromptDraftEditor } from './prompt-draft-editor';

function Editor({ agentId, draftId, onDone }: { agentId: string; draftId: string; onDone(message: string): void }) {
  const draft = usePromptDraft(agentId, draftId);
  const save = useSavePromptDraft();
  if (draft.isPending) return <Loading label="Loading the draft…" />;
  if (draft.error) return <ErrorState error={draft.error} title="The draft could not be loaded" />;
  if (draft.data.status !== 'draft') return <Empty>This draft was {draft.data.status}.</Empty>;
  return <PromptDraftEditor key={draft.data.updatedAt} draft={draft.data} save={save} onDone={onDone} />;
}

export function PromptDrafts({ agentId }: { agentId: string }) {
  const drafts = usePromptDrafts(agentId);
  const create = useCreatePromptDraft();
  const [picked, setPicked] = useState<string | null>(null);
  const [done, setDone] = useState<string>();
  if (drafts.isPending) return <Loading label="Loading drafts…" />;
  if (drafts.error) return <ErrorState error={drafts.error} title="The drafts could not be loaded" />;
  const open = drafts.data;
  const current = open.find((d) => d.id === picked) ?? open[0];
  return (
    <Stack>
      <Group align="end">
        {open.length > 1 && (
          <Select
            label="Open drafts"
            data={open.map((d) => ({ value: d.id, label: `${d.note || 'Draft'}, saved ${new Date(d.updatedAt).toLocaleString()}` }))}
            value={current?.id ?? null}
            onChange={setPicked}
            allowDeselect={false}
            w={420}
          />
        )}
        <WriteButton variant="default" loading={create.isPending} onClick={() => create.mutate(agentId, { onSuccess: (d) => (setPicked(d.id), setDone(undefined)) })}>
          New draft from the live prompts
        </WriteButton>
      </Group>
      {done && (
        <Alert color="teal" role="status">
          {done}
        </Alert>
      )}
      {create.error && <ErrorState error={create.error} title="The draft was not created" />}
      {open.length === 0 && <Empty>No open draft. A draft lets you change the prompts and compare them with the live ones before the agent uses them.</Empty>}
      {open.length === 1 && (
        <Text size="sm" fw={600}>
          {current?.note || 'Open draft'}
        </Text>
      )}
      {current && (
        <Editor
          key={current.id}
          agentId={agentId}
          draftId={current.id}
          onDone={(message) => {
            setPicked(null);
            setDone(message);
          }}
        />
      )}
    </Stack>
  );
}
