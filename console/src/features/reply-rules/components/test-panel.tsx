// The test route: a sample message (and what the agent knows around it) and which slot applies,
// with each condition's value and whether it held. Changes nothing, so a read-only key may use it.
import { Alert, Badge, Button, Card, Group, NumberInput, Stack, Table, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { predicateWords, valueWords } from '../../../components/condition-words';
import { errorOf, fieldErrors, unplaced } from '../../../components/field-errors';
import { TableHead } from '../../../components/table-head';
import { replyTypeLabel, type ReplyTestResult, type TestBody, useTestReplyRules } from '../api';

/** "name = value" lines; a value that reads as JSON (42, true, "x", [..]) is taken as such. */
function parseAttributes(text: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const line of text.split('\n')) {
    const at = line.indexOf('=');
    if (at < 1) continue;
    const raw = line.slice(at + 1).trim();
    let value: unknown = raw;
    try {
      value = JSON.parse(raw);
    } catch {
      // a plain word: kept as a string
    }
    out[line.slice(0, at).trim()] = value;
  }
  return out;
}

/** "Group: tag, tag" lines. */
function parseTags(text: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const line of text.split('\n')) {
    const at = line.indexOf(':');
    if (at < 1) continue;
    out[line.slice(0, at).trim()] = line.slice(at + 1).split(',').map((t) => t.trim()).filter(Boolean);
  }
  return out;
}

const REASONS: Record<string, string> = { missing: 'not in the message', type_mismatch: 'not of the condition\'s type' };

function Result({ result }: { result: ReplyTestResult }) {
  return (
    <Stack gap="sm" role="region" aria-label="Test result">
      <Alert color={result.matched ? 'blue' : 'gray'} title={result.matched ? `${replyTypeLabel(result.replyType)} applies` : 'No slot held: Direct reply'}>
        {result.matched ? `The conditions of ${replyTypeLabel(result.replyType)} held for this message.` : 'No enabled slot held, so the agent answers the customer directly (the default).'}
      </Alert>
      {result.slots.map((slot) => (
        <Stack key={slot.replyType} gap={4}>
          <Group gap="xs">
            <Text fw={700} size="sm">
              {replyTypeLabel(slot.replyType)}
            </Text>
            <Badge color={slot.holds ? 'blue' : 'gray'} variant="light">
              {!slot.configured ? 'Not set' : !slot.isEnabled ? 'Disabled, not evaluated' : slot.holds ? 'Holds' : 'Does not hold'}
            </Badge>
          </Group>
          {slot.groups.map((group, gi) => (
            <Table key={gi} withTableBorder aria-label={`${replyTypeLabel(slot.replyType)}, group ${gi + 1}: ${group.holds ? 'holds' : 'does not hold'}`}>
              <TableHead columns={[`Group ${gi + 1}${gi > 0 ? ' (OR)' : ''}: ${group.holds ? 'holds' : 'does not hold'}`, 'Value in the message', 'Holds']} />
              <Table.Tbody>
                {group.predicates.map((p, pi) => (
                  <Table.Tr key={pi}>
                    <Table.Td>{predicateWords({ left: { path: p.path, dataType: p.dataType }, operator: p.operator, right: { value: p.right } }, group.scope)}</Table.Td>
                    <Table.Td>{p.found ? valueWords(p.left) : '(none)'}</Table.Td>
                    <Table.Td>{p.holds ? 'Yes' : `No${p.reason ? `: ${REASONS[p.reason] ?? p.reason}` : ''}`}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          ))}
        </Stack>
      ))}
    </Stack>
  );
}

export function TestPanel() {
  const [form, setForm] = useState({ content: '', language: '', channel: '', source: '', attributes: '', tags: '' });
  const [turn, setTurn] = useState<number | string>('');
  const test = useTestReplyRules();
  const errors = fieldErrors(test.error);
  const field = (name: string) => errorOf(errors, `context.${name}`);
  const set = (name: keyof typeof form) => (e: { currentTarget: { value: string } }) => setForm({ ...form, [name]: e.currentTarget.value });
  const run = () => {
    const conversation = { channel: form.channel || undefined, source: form.source || undefined, turn: typeof turn === 'number' ? turn : undefined };
    const context: TestBody['context'] = {
      message: { content: form.content, language: form.language || undefined },
      conversation,
      userAttributes: parseAttributes(form.attributes),
      tags: parseTags(form.tags),
    };
    test.mutate({ context });
  };
  const above = unplaced(errors, (path) => /^context\.(message\.(content|language)|conversation\.(channel|source|turn)|userAttributes|tags)/.test(path));
  return (
    <Card withBorder component="section" aria-label="Test with a sample message">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Test with a sample message
        </Title>
        <Textarea label="Customer message" autosize minRows={2} value={form.content} error={field('message.content')} onChange={set('content')} />
        <Group align="flex-start">
          <TextInput label="Channel" placeholder="email" value={form.channel} error={field('conversation.channel')} onChange={set('channel')} />
          <TextInput label="Source" value={form.source} error={field('conversation.source')} onChange={set('source')} />
          <TextInput label="Language" placeholder="en" value={form.language} error={field('message.language')} onChange={set('language')} />
          <NumberInput label="Turn" min={1} allowDecimal={false} value={turn} error={field('conversation.turn')} onChange={setTurn} />
        </Group>
        <Group grow align="flex-start">
          <Textarea label="Customer attributes" description="One per line: name = value (plan = enterprise, isVip = true)" autosize minRows={2} value={form.attributes} error={field('userAttributes')} onChange={set('attributes')} />
          <Textarea label="Tags" description="One group per line: Group: tag, tag" autosize minRows={2} value={form.tags} error={field('tags')} onChange={set('tags')} />
        </Group>
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
