// The test panel: customer messages typed one by one, each sent to the rule test route with the
// state the previous one left (a dry run: nothing is stored, tools are recorded, not called). Each
// turn shows the trigger score, every step walked with its result, the state it waits in and the
// dry-run tool calls; Reset starts a new conversation.
import { Badge, Button, Code, Group, List, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { useState } from 'react';
import { ErrorState } from '../../../components/states';
import { type RuleTestResult, useFlowNames, useTestRule } from '../api';
import { predicateWords } from '../../../components/condition-words';
import { type FlowNames, type FlowNode } from '../flow';

type Step = NonNullable<RuleTestResult['walk']>['steps'][number];
const show = (value: unknown) => (typeof value === 'string' ? `“${value}”` : JSON.stringify(value));

function stepText(step: Step, names: FlowNames): string {
  switch (step.type) {
    case 'message':
      return `said “${step.reply}”`;
    case 'collect': {
      const value = step.action === 'accepted' || step.action === 'known' ? ` ${show(step.value)}` : '';
      return `${step.action} rule.${step.field}${value}${step.reply ? `: “${step.reply}”` : ''}${step.attempts ? ` (attempt ${step.attempts + 1})` : ''}`;
    }
    case 'condition': {
      const predicates = step.conditions.groups.flatMap((g) =>
        g.predicates.map((p) => `${predicateWords({ left: { path: p.path, dataType: p.dataType }, operator: p.operator, right: { value: p.right } }, g.scope)}: ${p.holds ? 'holds' : 'does not hold'} (value ${p.found ? show(p.left) : p.reason === 'type_mismatch' ? 'of another type' : 'missing'})`),
      );
      return `${step.holds ? 'holds' : 'does not hold'}, took ${step.branch === 'then' ? 'Then' : 'Otherwise'}; ${predicates.join('; ')}`;
    }
    case 'tool':
      return `${step.dryRun ? 'would call' : 'called'} ${names.action(step.toolId)} with ${JSON.stringify(step.inputs)}: ${step.success ? 'success' : `failure${step.error ? ` (${step.error})` : ''}`}`;
    case 'tag':
      return `tagged ${step.tagIds.map(names.tag).join(', ')}`;
    case 'escalate':
      return `handed over (reason ${step.reason})${step.reply ? `: “${step.reply}”` : ''}`;
    case 'end':
      return `ended the flow${step.reply ? `: “${step.reply}”` : ''}`;
  }
}

const STATUS_TEXT: Record<string, string> = { waiting_for_input: 'Waiting for input', escalated: 'Escalated', ended: 'Ended', completed: 'Completed' };

function Turn({ message, result, index, names }: { message: string; result: RuleTestResult; index: number; names: FlowNames }) {
  const walk = result.walk;
  const waiting = walk?.state.waitingFor;
  return (
    <Paper component="article" withBorder p="sm" aria-label={`Turn ${index + 1}`}>
      <Text size="sm">
        <b>Customer:</b> {message}
      </Text>
      <Group gap="xs" mt={4}>
        <Badge color={result.trigger.matched ? 'teal.9' : 'gray.8'}>{result.trigger.matched ? 'Trigger matched' : 'Trigger not matched'}</Badge>
        <Text size="sm">
          Score {result.trigger.score} (threshold {result.threshold}): {result.trigger.reason}
        </Text>
      </Group>
      {!walk && <Text size="sm">The rule has no flow to walk.</Text>}
      {walk && (
        <>
          <Title order={4} size="h6" mt="xs">
            Steps
          </Title>
          <List size="sm" type="ordered" aria-label={`Steps of turn ${index + 1}`}>
            {walk.steps.map((step, i) => (
              <List.Item key={i}>
                <Code>{step.nodeId}</Code> {step.type}: {stepText(step, names)}
              </List.Item>
            ))}
          </List>
          <Text size="sm" mt="xs" fw={600} aria-label={`State after turn ${index + 1}`}>
            {STATUS_TEXT[walk.status] ?? walk.status}
            {waiting ? `: waiting for ${waiting.field} (node ${waiting.nodeId})` : ''}
            {walk.escalation ? `: reason ${walk.escalation.reason}${walk.escalation.message ? `, “${walk.escalation.message}”` : ''}` : ''}
          </Text>
          {Object.keys(walk.state.collected).length > 0 && <Text size="sm">Collected: {Object.entries(walk.state.collected).map(([k, v]) => `${k} = ${show(v)}`).join(', ')}</Text>}
          {walk.toolCalls.length > 0 && (
            <>
              <Title order={4} size="h6" mt="xs">
                Tool calls (dry run)
              </Title>
              <List size="sm">
                {walk.toolCalls.map((t, i) => (
                  <List.Item key={i}>
                    {t.toolName ?? names.action(t.toolId)} at <Code>{t.nodeId}</Code>: inputs {JSON.stringify(t.inputs)}, {t.success ? 'success' : `failure${t.error ? ` (${t.error})` : ''}`}, output {JSON.stringify(t.output)}
                  </List.Item>
                ))}
              </List>
            </>
          )}
        </>
      )}
    </Paper>
  );
}

export function TestPanel({ ruleId, flow }: { ruleId: string; flow: FlowNode | null }) {
  const test = useTestRule();
  const names = useFlowNames(flow);
  const [turns, setTurns] = useState<{ message: string; result: RuleTestResult }[]>([]);
  const [message, setMessage] = useState('');
  // The evaluation context besides the message (userAttributes, conversation, time: docs/rules.md).
  const [context, setContext] = useState('');
  const [contextError, setContextError] = useState<string | null>(null);
  const last = turns.at(-1)?.result.walk;
  // The walk resumes from the state the last message left while it waits; after it finished, a new one starts.
  const state = last?.status === 'waiting_for_input' ? last.state : undefined;
  return (
    <Stack>
      <Text size="sm">Each message is a dry run of the rule test route: nothing is stored and tools are not called.</Text>
      {turns.map((turn, i) => (
        <Turn key={i} index={i} message={turn.message} result={turn.result} names={names} />
      ))}
      <form
        aria-label="Test message"
        onSubmit={(e) => {
          e.preventDefault();
          const sent = message;
          let parsed: Record<string, unknown> | undefined;
          try {
            parsed = context.trim() ? (JSON.parse(context) as Record<string, unknown>) : undefined;
            setContextError(null);
          } catch (error) {
            setContextError(`The context is not JSON: ${(error as Error).message}`);
            return;
          }
          test.mutate({ id: ruleId, message: sent, state, context: parsed }, { onSuccess: (result) => (setTurns((t) => [...t, { message: sent, result }]), setMessage('')) });
        }}
      >
        <Stack gap="xs">
          <Textarea label="Customer message" required autosize minRows={2} value={message} onChange={(e) => setMessage(e.currentTarget.value)} />
          <Textarea
            label="Context (JSON, optional)"
            description='what the conditions may read besides the message, e.g. {"userAttributes": {"plan": "premium"}}'
            autosize
            minRows={1}
            value={context}
            onChange={(e) => setContext(e.currentTarget.value)}
            error={contextError}
            styles={{ input: { fontFamily: "monospace" } }}
          />
          <Group>
            <Button type="submit" loading={test.isPending}>
              Send
            </Button>
            <Button variant="default" disabled={turns.length === 0} onClick={() => (setTurns([]), test.reset())}>
              Reset
            </Button>
          </Group>
        </Stack>
      </form>
      {test.error && <ErrorState error={test.error} title="The test did not run" />}
    </Stack>
  );
}
