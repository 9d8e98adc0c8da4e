// The workspace's intent rules, published and drafts (their state, trigger and agents), a draft
// from plain instructions (the drafting route), and a new published rule by name and description.
import { Badge, Group, Stack, Table, Textarea, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import { Empty, ErrorState, Loading } from '../../../components/states';
import { TableHead } from '../../../components/table-head';
import { WriteButton } from '../../../components/write-button';
import { useAgents } from '../../agents/api';
import { type RuleSummary, useCreateRule, useDraftRule, useRules } from '../api';

function Rules({ drafts, agentName }: { drafts: boolean; agentName: (id: string) => string }) {
  const rules = useRules(drafts);
  const label = drafts ? 'Drafts' : 'Published rules';
  return (
    <section aria-label={label}>
      <Title order={2} size="h4" mb="xs">
        {label}
      </Title>
      {rules.isPending && <Loading label={`Loading ${label.toLowerCase()}…`} />}
      {rules.error && <ErrorState error={rules.error} title={`The ${label.toLowerCase()} could not be loaded`} />}
      {rules.data && rules.data.length === 0 && <Empty>{drafts ? 'No drafts.' : 'No published rules yet.'}</Empty>}
      {rules.data && rules.data.length > 0 && (
        <Table striped aria-label={label}>
          <TableHead columns={['Rule', 'State', 'Trigger', 'Agents', 'Changed']} />
          <Table.Tbody>
            {rules.data.map((rule: RuleSummary) => (
              <Table.Tr key={rule.id}>
                <Table.Td>
                  <Link href={`/${rule.id}`}>{rule.name}</Link>
                </Table.Td>
                <Table.Td>
                  <Badge color={rule.isDraft ? 'gray.8' : 'teal.9'}>{rule.isDraft ? 'Draft' : `Version ${rule.version}`}</Badge>
                </Table.Td>
                <Table.Td>{rule.triggerType === 'on_escalation' ? 'On an escalated conversation' : 'On a customer message'}</Table.Td>
                <Table.Td>{rule.botIds.length ? rule.botIds.map(agentName).join(', ') : '—'}</Table.Td>
                <Table.Td>{new Date(rule.updatedAt).toLocaleString()}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </section>
  );
}

function DraftFromInstructions({ onDrafted }: { onDrafted(id: string): void }) {
  const draft = useDraftRule();
  const [text, setText] = useState('');
  return (
    <form
      aria-label="Draft a rule from instructions"
      onSubmit={(e) => {
        e.preventDefault();
        draft.mutate(text, { onSuccess: (rule) => onDrafted(rule.id) });
      }}
    >
      <Stack gap="xs">
        <Textarea
          label="Instructions"
          description="Plain steps, as to a colleague: ask for …, if … then …, otherwise say “…”, hand over when …, tag as …"
          required
          autosize
          minRows={3}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
        />
        <WriteButton type="submit" loading={draft.isPending} w="fit-content">
          Draft the rule
        </WriteButton>
        {draft.error && <ErrorState error={draft.error} title="The rule was not drafted" />}
      </Stack>
    </form>
  );
}

function NewRule({ onCreated }: { onCreated(id: string): void }) {
  const create = useCreateRule();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  return (
    <form
      aria-label="New rule"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate({ name, description }, { onSuccess: (rule) => onCreated(rule.id) });
      }}
    >
      <Group align="end">
        <TextInput label="Name" required value={name} onChange={(e) => setName(e.currentTarget.value)} />
        <TextInput label="When it applies" required value={description} onChange={(e) => setDescription(e.currentTarget.value)} w={360} />
        <WriteButton type="submit" variant="default" loading={create.isPending}>
          Create rule
        </WriteButton>
      </Group>
      {create.error && <ErrorState error={create.error} title="The rule was not created" />}
    </form>
  );
}

export function RuleList() {
  const agents = useAgents();
  const [, navigate] = useLocation();
  const agentName = (id: string) => agents.data?.find((a) => a.id === id)?.name ?? id;
  return (
    <Stack>
      <Title order={1} size="h2">
        Rules
      </Title>
      <Title order={2} size="h4">
        Draft a rule from instructions
      </Title>
      <DraftFromInstructions onDrafted={(id) => navigate(`/${id}`)} />
      <Title order={2} size="h4">
        Create a rule
      </Title>
      <NewRule onCreated={(id) => navigate(`/${id}`)} />
      <Rules drafts={false} agentName={agentName} />
      <Rules drafts agentName={agentName} />
    </Stack>
  );
}
