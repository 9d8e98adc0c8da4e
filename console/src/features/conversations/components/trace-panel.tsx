// What the agent did for one reply, from GET /v2/hc-events/{id}/metadata: planning, the reply
// rule, the rule run, the knowledge hits (the ones the answer used marked), guardrails, the
// hand-over reason, errors and the time of each stage.
import { Badge, Box, Group, List, Stack, Table, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Empty, ErrorState, Loading } from '../../../components/states';
import { TableHead } from '../../../components/table-head';
import { type ConversationEvent, type Trace, useTrace } from '../api';

const HANDOVER_REASONS: Record<string, string> = {
  missing_knowledge: 'the knowledge does not answer it',
  customer_request: 'the customer asked for a person',
  rule_escalation: 'a rule escalated',
  guardrail_block: 'a guardrail blocked the answer',
  tool_failure: 'an action failed',
  low_confidence: 'the answer was not confident enough',
  negative_sentiment: 'the customer is upset',
  other: 'another reason',
};

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="section" aria-label={title}>
      <Title order={4} size="h6" mb={4}>
        {title}
      </Title>
      {children}
    </Box>
  );
}

function KnowledgeHits({ trace, used }: { trace: Trace; used: Set<string> }) {
  const hits = trace.knowledgeSearch?.articles ?? [];
  if (!trace.knowledgeSearch) return <Empty>No knowledge search for this reply.</Empty>;
  if (hits.length === 0) return <Empty>The search found no article.</Empty>;
  return (
    <List size="sm" spacing={2}>
      {hits.map((hit) => (
        <List.Item key={hit.id}>
          {hit.title} <Text span size="xs" c="dimmed">(version {hit.version})</Text>{' '}
          {used.has(hit.id) && (
            <Badge size="xs" color="teal.9">
              Used in the answer
            </Badge>
          )}
        </List.Item>
      ))}
    </List>
  );
}

function TraceBody({ trace, event }: { trace: Trace; event: ConversationEvent }) {
  const used = new Set(event.usedArticles.map((a) => a.id));
  const timings = Object.entries(trace.timings);
  return (
    <Stack gap="sm">
      {trace.handover && (
        <Text size="sm" fw={600}>
          Handed over: {trace.handover.reason ? (HANDOVER_REASONS[trace.handover.reason] ?? trace.handover.reason) : 'yes'}
        </Text>
      )}
      <Section title="Planning">
        {trace.planning ? (
          <Text size="sm">
            {trace.planning.performKnowledgeSearch ? 'Searched the knowledge. ' : 'No search needed. '}
            {trace.planning.reasoning}
          </Text>
        ) : (
          <Empty>No planning step.</Empty>
        )}
      </Section>
      <Section title="Reply rule">
        <Text size="sm">
          {trace.replyRule.replyType}
          {trace.replyRule.matched ? ' (a reply rule matched)' : ' (no reply rule matched)'}
        </Text>
      </Section>
      <Section title="Rule run">
        {trace.executedRules ? (
          <>
            <Text size="sm">{trace.executedRules.ruleName}</Text>
            <List size="sm">
              {trace.executedRules.results.map((step) => (
                <List.Item key={step.id}>
                  {step.name} ({step.type}): {step.success ? 'succeeded' : 'failed'}
                </List.Item>
              ))}
            </List>
          </>
        ) : (
          <Empty>No rule ran.</Empty>
        )}
      </Section>
      <Section title="Knowledge hits">
        <KnowledgeHits trace={trace} used={used} />
      </Section>
      <Section title="Guardrails">
        {trace.guardrails.length === 0 ? (
          <Empty>No guardrail checked.</Empty>
        ) : (
          <List size="sm">
            {trace.guardrails.map((g) => (
              <List.Item key={`${g.stage}-${g.id}`}>
                {g.name} ({g.stage}): {g.result.matched ? `matched, ${g.action}` : 'passed'}
              </List.Item>
            ))}
          </List>
        )}
      </Section>
      {trace.errors.length > 0 && (
        <Section title="Errors">
          <List size="sm">
            {trace.errors.map((e, i) => (
              <List.Item key={i}>
                {e.stage}: {e.message}
              </List.Item>
            ))}
          </List>
        </Section>
      )}
      <Section title="Timings">
        {timings.length === 0 ? (
          <Empty>No timings recorded.</Empty>
        ) : (
          <Table fz="sm" withRowBorders={false}>
            <TableHead columns={['Stage', 'ms']} />
            <Table.Tbody>
              {timings.map(([stage, ms]) => (
                <Table.Tr key={stage}>
                  <Table.Td>{stage}</Table.Td>
                  <Table.Td>{Math.round(ms)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Section>
      <Group gap="xs">
        <Text size="xs" c="dimmed">
          Model {trace.model.provider}/{trace.model.model}
          {trace.confidence !== null && `, confidence ${trace.confidence.toFixed(2)}`}
          {trace.sentiment && `, sentiment ${trace.sentiment}`}
        </Text>
      </Group>
    </Stack>
  );
}

export function TracePanel({ event }: { event: ConversationEvent }) {
  const trace = useTrace(event.id);
  return (
    <Box component="aside" aria-label="Trace of this reply" p="sm" style={{ border: '1px solid var(--mantine-color-gray-3)', borderRadius: 6 }}>
      {trace.isPending && <Loading label="Loading the trace…" />}
      {trace.error && <ErrorState error={trace.error} title="The trace could not be loaded" />}
      {trace.data && <TraceBody trace={trace.data} event={event} />}
    </Box>
  );
}
