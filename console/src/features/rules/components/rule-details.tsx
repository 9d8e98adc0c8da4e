// A rule's name, trigger description and trigger type (the update route), and, for a draft, more
// instructions to refine its flow with (the refine route; what it did not understand is shown).
import { Group, Select, Stack, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { ErrorState } from '../../../components/states';
import { WriteButton } from '../../../components/write-button';
import { type Rule, useRefineRule, useUpdateRule } from '../api';

const TRIGGERS = [
  { value: 'on_message', label: 'On a customer message' },
  { value: 'on_escalation', label: 'On an escalated conversation' },
];

export function RuleDetails({ rule }: { rule: Rule }) {
  const update = useUpdateRule();
  const [name, setName] = useState(rule.name);
  const [description, setDescription] = useState(rule.description);
  const [trigger, setTrigger] = useState(rule.triggerType);
  const unchanged = name === rule.name && description === rule.description && trigger === rule.triggerType;
  return (
    <form
      aria-label="Rule details"
      onSubmit={(e) => {
        e.preventDefault();
        update.mutate({ id: rule.id, change: { name, description, triggerType: trigger as 'on_message' | 'on_escalation' }, baseVersion: rule.version ?? undefined });
      }}
    >
      <Stack gap="xs">
        <TextInput label="Name" required value={name} onChange={(e) => setName(e.currentTarget.value)} />
        <Textarea label="When it applies" description="the trigger description the messages are matched against" autosize minRows={2} value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
        <Select label="Trigger" data={TRIGGERS} value={trigger} allowDeselect={false} onChange={(v) => setTrigger(v ?? 'on_message')} w={280} />
        <Group>
          <WriteButton type="submit" disabled={unchanged} loading={update.isPending}>
            Save details
          </WriteButton>
        </Group>
        {update.error && <ErrorState error={update.error} title="The details were not saved" />}
      </Stack>
    </form>
  );
}

export function RefineForm({ rule }: { rule: Rule }) {
  const refine = useRefineRule();
  const [text, setText] = useState('');
  return (
    <form
      aria-label="Refine the draft"
      onSubmit={(e) => {
        e.preventDefault();
        refine.mutate({ id: rule.id, refinementInstructions: text }, { onSuccess: () => setText('') });
      }}
    >
      <Stack gap="xs">
        <Textarea
          label="More instructions"
          description="e.g. “also ask for the email first”, “change the message to '…'”, “hand over when …”"
          required
          autosize
          minRows={2}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
        />
        <WriteButton type="submit" loading={refine.isPending} w="fit-content">
          Refine
        </WriteButton>
        {refine.error && <ErrorState error={refine.error} title="The draft was not refined" />}
      </Stack>
    </form>
  );
}
