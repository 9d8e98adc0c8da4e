// Editing a prompt draft: each prompt's sections (title, content, enabled; a channel section also
// its channel), add and remove sections, a note; save the draft, compare it with the live prompt,
// publish it (a 409 when a version was saved since; publish anyway overwrites), or discard it.
import { Button, Checkbox, Fieldset, Group, Select, Stack, Tabs, Text, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { ApiError } from '../../../api/client';
import { GateRefusal, isGateRefusal } from '../../../components/gate-refusal';
import { ErrorState } from '../../../components/states';
import { WriteButton } from '../../../components/write-button';
import { useSession } from '../../../app/session';
import { type ChannelSection, type PromptDraft, type PromptSet, useDiscardPromptDraft, usePublishPromptDraft, type useSavePromptDraft } from '../api';
import { PromptDraftDiff } from './prompt-draft-diff';

type Key = keyof PromptSet;
type AnySection = PromptSet[Key][number];

const PROMPTS: [Key, string][] = [
  ['hcPlanningPrompt', 'Planning'],
  ['hcGuidelinePrompt', 'Guidelines'],
  ['hcChannelPrompt', 'Channels'],
];

/** A section id the API accepts (letters, digits and . _ : -) that no other section of the prompt has. */
const newId = (key: Key) => `${key === 'hcPlanningPrompt' ? 'planning' : key === 'hcGuidelinePrompt' ? 'guideline' : 'channel'}.custom-${Date.now().toString(36)}`;

function SectionFields({ prompt, section, onChange, onRemove }: { prompt: string; section: AnySection; onChange(next: AnySection): void; onRemove(): void }) {
  const { canWrite } = useSession();
  const channel = 'channel' in section ? (section as ChannelSection).channel : undefined;
  return (
    <Fieldset legend={`${prompt}: ${section.title || 'New section'}`} disabled={!canWrite}>
      <Stack gap="xs">
        <Group align="end">
          <TextInput label="Title" required maxLength={200} value={section.title} onChange={(e) => onChange({ ...section, title: e.currentTarget.value })} w={320} />
          {channel && (
            <Select
              label="Channel"
              data={['chat', 'email']}
              value={channel}
              onChange={(v) => v && onChange({ ...section, channel: v as ChannelSection['channel'] })}
              allowDeselect={false}
              w={120}
            />
          )}
          <Checkbox label="Enabled" checked={section.enabled} onChange={(e) => onChange({ ...section, enabled: e.currentTarget.checked })} mb={8} />
          <Button variant="subtle" color="red" onClick={onRemove}>
            Remove section
          </Button>
        </Group>
        <Textarea label="Content" autosize minRows={2} maxRows={14} value={section.content} onChange={(e) => onChange({ ...section, content: e.currentTarget.value })} />
      </Stack>
    </Fieldset>
  );
}

function Publish({ draft, onDone }: { draft: PromptDraft; onDone(message: string): void }) {
  const publish = usePublishPromptDraft();
  const discard = useDiscardPromptDraft();
  const gated = isGateRefusal(publish.error);
  const stale = publish.error instanceof ApiError && publish.error.status === 409 && !gated;
  // The editor unmounts as soon as the refreshed list no longer holds the draft, before mutate's own
  // callbacks would run; the promise settles regardless (a failure is shown from the mutation's state).
  const run = (overwrite: boolean, force = false) =>
    publish
      .mutateAsync({ agentId: draft.botId, draftId: draft.id, overwrite, force })
      .then((live) => onDone(`The draft was published as version ${live.version}.`))
      .catch(() => undefined);
  return (
    <Stack gap="xs">
      <Group>
        <WriteButton onClick={() => run(false)} loading={publish.isPending && !publish.variables?.overwrite}>
          Publish draft
        </WriteButton>
        {stale && (
          <WriteButton color="orange" onClick={() => run(true)} loading={publish.isPending && publish.variables?.overwrite}>
            Publish anyway (overwrite the newer version)
          </WriteButton>
        )}
        <WriteButton variant="default" color="red" loading={discard.isPending} onClick={() =>
            discard
              .mutateAsync({ agentId: draft.botId, draftId: draft.id })
              .then(() => onDone('The draft was discarded; the live prompts are unchanged.'))
              .catch(() => undefined)
          }>
          Discard draft
        </WriteButton>
      </Group>
      <GateRefusal error={publish.error} pending={publish.isPending} onForce={() => run(publish.variables?.overwrite ?? false, true)} />
      {publish.error && !gated && <ErrorState error={publish.error} title={stale ? 'A version was saved since this draft was made' : 'The draft was not published'} />}
      {discard.error && <ErrorState error={discard.error} title="The draft was not discarded" />}
    </Stack>
  );
}

export function PromptDraftEditor({ draft, save, onDone }: { draft: PromptDraft; save: ReturnType<typeof useSavePromptDraft>; onDone(message: string): void }) {
  const { canWrite } = useSession();
  const [prompts, setPrompts] = useState<PromptSet>({ hcPlanningPrompt: draft.hcPlanningPrompt, hcGuidelinePrompt: draft.hcGuidelinePrompt, hcChannelPrompt: draft.hcChannelPrompt });
  const [note, setNote] = useState(draft.note);
  const [edited, setEdited] = useState(false);
  const update = (key: Key, sections: AnySection[]) => {
    setPrompts({ ...prompts, [key]: sections });
    setEdited(true);
  };
  const add = (key: Key) => {
    const base = { id: newId(key), title: '', content: '', enabled: true };
    update(key, [...prompts[key], key === 'hcChannelPrompt' ? { ...base, channel: 'chat' as const } : base]);
  };
  return (
    <Stack>
      <Text size="sm">
        Made from {draft.baseVersion === null ? "Parley's defaults" : `version ${draft.baseVersion}`}, last saved {new Date(draft.updatedAt).toLocaleString()}
        {draft.updatedBy ? ` by ${draft.updatedBy}` : ''}. The agent keeps answering with the live prompts until the draft is published.
      </Text>
      <Tabs defaultValue="edit" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="edit">Edit</Tabs.Tab>
          <Tabs.Tab value="changes">Changes against live</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="edit" pt="md">
          <form
            aria-label="Edit the draft"
            onSubmit={(e) => {
              e.preventDefault();
              save.mutate({ agentId: draft.botId, draftId: draft.id, prompts, note }, { onSuccess: () => setEdited(false) });
            }}
          >
            <Stack>
              {PROMPTS.map(([key, label]) => (
                <Stack key={key} gap="xs" component="section" aria-label={`${label} sections`}>
                  <Text fw={700}>{label}</Text>
                  {prompts[key].length === 0 && <Text size="sm">No sections.</Text>}
                  {prompts[key].map((section, index) => (
                    <SectionFields
                      key={section.id}
                      prompt={label}
                      section={section}
                      onChange={(next) => update(key, prompts[key].map((s, i) => (i === index ? next : s)))}
                      onRemove={() => update(key, prompts[key].filter((_, i) => i !== index))}
                    />
                  ))}
                  <WriteButton variant="light" w="fit-content" onClick={() => add(key)}>
                    Add a {label.toLowerCase()} section
                  </WriteButton>
                </Stack>
              ))}
              <Textarea label="Note (optional)" description="Why this change, for whoever publishes it" maxLength={2000} autosize disabled={!canWrite} value={note} onChange={(e) => (setNote(e.currentTarget.value), setEdited(true))} />
              {save.error && <ErrorState error={save.error} title="The draft was not saved" />}
              <Group>
                <WriteButton type="submit" loading={save.isPending} disabled={!edited}>
                  Save draft
                </WriteButton>
                {edited && <Text size="sm">Unsaved changes: save the draft to compare or publish them.</Text>}
                {!edited && save.isSuccess && <Text size="sm" role="status">Draft saved.</Text>}
              </Group>
            </Stack>
          </form>
        </Tabs.Panel>
        <Tabs.Panel value="changes" pt="md">
          <PromptDraftDiff agentId={draft.botId} draftId={draft.id} />
        </Tabs.Panel>
      </Tabs>
      <Publish draft={draft} onDone={onDone} />
    </Stack>
  );
}
