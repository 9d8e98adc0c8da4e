// The test route: a message or an answer, and what the guardrails would do with it (block,
// escalate, the text after redactions, and each guardrail's verdict). Changes nothing, so a
// read-only key may use it.
import { Alert, Button, Card, Group, NativeSelect, Stack, Table, Text, Textarea, Title } from '@mantine/core';
import { useState } from 'react';
import { errorOf, fieldErrors, unplaced } from '../../../components/field-errors';
import { TableHead } from '../../../components/table-head';
import { useAgents } from '../../agents/api';
import { type GuardrailTestResult, kindLabel, type Stage, STAGE_LABELS, useTestGuardrails } from '../api';

function verdict(result: GuardrailTestResult): { color: string; title: string } {
  if (result.blocked) return { color: 'red', title: 'Blocked: no answer, the agent hands over (guardrail_block)' };
  if (result.escalate) return { color: 'blue', title: 'Escalates: the agent answers, then hands over' };
  if (result.results.some((r) => r.matched && r.action === 'redact')) return { color: 'blue', title: 'Redacted: the agent goes on with the text below' };
  if (result.results.some((r) => r.matched)) return { color: 'blue', title: 'Passes, flagged: the matches are recorded' };
  return { color: 'gray', title: 'Passes: no guardrail matched' };
}

function Result({ result }: { result: GuardrailTestResult }) {
  const { color, title } = verdict(result);
  return (
    <Stack gap="sm" role="region" aria-label="Test result">
      <Alert color={color} title={title}>
        <Text size="sm">Text after redactions: {result.text}</Text>
      </Alert>
      {result.results.length === 0 ? (
        <Text size="sm">No guardrail ran: none is enabled for this stage here.</Text>
      ) : (
        <Table withTableBorder aria-label="What each guardrail did">
          <TableHead columns={['Guardrail', 'Kind', 'Action', 'Matched', 'Detail', 'Matches']} />
          <Table.Tbody>
            {result.results.map((r) => (
              <Table.Tr key={r.id}>
                <Table.Td>{r.name}</Table.Td>
                <Table.Td>{kindLabel(r.kind)}</Table.Td>
                <Table.Td>{r.action}</Table.Td>
                <Table.Td>{r.matched ? 'Yes' : 'No'}</Table.Td>
                <Table.Td>{r.detail}</Table.Td>
                <Table.Td>
                  {r.matches.map((m) => `${m.type}${m.value ? ` “${m.value}”` : ''}${m.start !== undefined ? ` at ${m.start}–${m.end}` : ''}`).join('; ')}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}

/** With `guardrailId`, tests that guardrail (enabled or not); else an agent's or the workspace's enabled ones. */
export function TestPanel({ guardrailId, stage: initialStage = 'input' }: { guardrailId?: string; stage?: Stage }) {
  const [stage, setStage] = useState<Stage>(initialStage);
  const [text, setText] = useState('');
  const [citations, setCitations] = useState('');
  const [botId, setBotId] = useState('');
  const agents = useAgents();
  const test = useTestGuardrails();
  const errors = fieldErrors(test.error);
  const above = unplaced(errors, (path) => ['stage', 'text', 'citations', 'botId'].includes(path.split('.')[0]!));
  const run = () =>
    test.mutate({
      stage,
      text,
      citations: stage === 'output' ? citations.split('\n').map((c) => c.trim()).filter(Boolean) : undefined,
      ...(guardrailId ? { guardrailIds: [guardrailId] } : botId ? { botId } : {}),
    });
  return (
    <Card withBorder component="section" aria-label="Test">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {guardrailId ? 'Test this guardrail' : 'Test the guardrails'}
        </Title>
        <Group align="flex-start" grow>
          <NativeSelect label="Check" data={(['input', 'output'] as const).map((s) => ({ value: s, label: STAGE_LABELS[s] }))} value={stage} error={errorOf(errors, 'stage')} onChange={(e) => setStage(e.currentTarget.value as Stage)} />
          {!guardrailId && (
            <NativeSelect
              label="Guardrails of"
              data={[{ value: '', label: 'The whole workspace (every enabled guardrail)' }, ...(agents.data ?? []).map((a) => ({ value: a.id, label: `Agent ${a.name}` }))]}
              value={botId}
              error={errorOf(errors, 'botId')}
              onChange={(e) => setBotId(e.currentTarget.value)}
            />
          )}
        </Group>
        <Textarea label={stage === 'input' ? 'Customer message' : 'Agent answer'} autosize minRows={2} value={text} error={errorOf(errors, 'text')} onChange={(e) => setText(e.currentTarget.value)} />
        {stage === 'output' && (
          <Textarea label="Cited article ids" description="One per line; none: the answer cites no article" autosize value={citations} error={errorOf(errors, 'citations')} onChange={(e) => setCitations(e.currentTarget.value)} />
        )}
        {above.length > 0 && (
          <Alert color="red" title="The test was refused" role="alert">
            {above.join('; ')}
          </Alert>
        )}
        <Button w="fit-content" loading={test.isPending} onClick={run}>
          Test
        </Button>
        {test.data && <Result result={test.data} />}
      </Stack>
    </Card>
  );
}
