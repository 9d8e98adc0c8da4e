// One rule: its state, trigger and agents, the flow drawn as a tree (editable node by node), the
// test panel, its details, its agents (publish a draft), its versions, and delete.
import { Badge, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useLocation } from 'wouter';
import { BackLink } from '../../../components/back-link';
import { ConfirmDelete } from '../../../components/confirm-delete';
import { ErrorState, Loading } from '../../../components/states';
import { WriteButton } from '../../../components/write-button';
import { useAgents } from '../../agents/api';
import { type Rule, useDeleteRule, useRule } from '../api';
import type { FlowNode } from '../flow';
import { RefineForm, RuleDetails } from './rule-details';
import { RuleAgents } from './rule-agents';
import { RuleFlow } from './rule-flow';
import { RuleVersions } from './rule-versions';
import { TestPanel } from './test-panel';

function DeleteRule({ rule }: { rule: Rule }) {
  const remove = useDeleteRule();
  const [confirming, setConfirming] = useState(false);
  const [, navigate] = useLocation();
  return (
    <>
      <WriteButton color="red" variant="default" onClick={() => setConfirming(true)}>
        Delete rule
      </WriteButton>
      <ConfirmDelete opened={confirming} onClose={() => setConfirming(false)} action="Delete rule" pending={remove.isPending} error={remove.error} onConfirm={() => remove.mutate(rule.id, { onSuccess: () => navigate('/') })}>
        Delete “{rule.name}” with all its versions? Its agents stop running it.
      </ConfirmDelete>
    </>
  );
}

export function RulePage({ id }: { id: string }) {
  const rule = useRule(id);
  const agents = useAgents();
  if (rule.isPending) return <Loading label="Loading the rule…" />;
  if (rule.error) return <ErrorState error={rule.error} title="The rule could not be loaded" />;
  const r = rule.data;
  const agentName = (botId: string) => agents.data?.find((a) => a.id === botId)?.name ?? botId;
  return (
    <Stack>
      <BackLink href="/" label="the rules" />
      <Group justify="space-between" align="start">
        <div>
          <Title order={1} size="h2">
            {r.name}
          </Title>
          <Group gap="xs" mt={4}>
            <Badge color={r.isDraft ? 'gray.8' : 'teal.9'}>{r.isDraft ? 'Draft' : `Published, version ${r.version}`}</Badge>
            <Text size="sm">{r.triggerType === 'on_escalation' ? 'On an escalated conversation' : 'On a customer message'}</Text>
            <Text size="sm">{r.botIds.length ? `Agents: ${r.botIds.map(agentName).join(', ')}` : 'No agent'}</Text>
          </Group>
          <Text size="sm" c="dimmed" mt={4}>
            {r.description}
          </Text>
        </div>
        <DeleteRule rule={r} />
      </Group>
      <Tabs defaultValue="flow" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="flow">Flow</Tabs.Tab>
          <Tabs.Tab value="test">Test</Tabs.Tab>
          <Tabs.Tab value="agents">{r.isDraft ? 'Publish' : 'Agents'}</Tabs.Tab>
          <Tabs.Tab value="details">Details</Tabs.Tab>
          {!r.isDraft && <Tabs.Tab value="versions">Versions</Tabs.Tab>}
        </Tabs.List>
        <Tabs.Panel value="flow" pt="md">
          <Stack>
            <RuleFlow key={r.versionId ?? r.updatedAt} rule={r} />
            {r.isDraft && <RefineForm rule={r} />}
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="test" pt="md">
          <TestPanel ruleId={r.id} flow={r.flowConfig as FlowNode | null} />
        </Tabs.Panel>
        <Tabs.Panel value="agents" pt="md">
          <RuleAgents key={r.updatedAt} rule={r} />
        </Tabs.Panel>
        <Tabs.Panel value="details" pt="md">
          <RuleDetails key={r.updatedAt} rule={r} />
        </Tabs.Panel>
        {!r.isDraft && (
          <Tabs.Panel value="versions" pt="md">
            <RuleVersions ruleId={r.id} agentName={agentName} />
          </Tabs.Panel>
        )}
      </Tabs>
    </Stack>
  );
}
