// Try the agent (lazy-loaded): talk to an agent as a customer would, through Generate Answer, with
// each reply's trace beside it. The conversation is a real one (source `api`): it shows in the inbox.
import { Button, Grid, Group, Paper, Select, Stack, Text, Textarea, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { Link } from 'wouter';
import { Empty, ErrorState, Loading } from '../../components/states';
import { WriteButton } from '../../components/write-button';
import { useAgents } from '../agents/api';
import { NewAgent } from '../agents/components/new-agent';
import { type ConversationEvent, usePostEvent } from '../conversations/api';
import { TracePanel } from '../conversations/components/trace-panel';
import { EventBubble } from '../conversations/components/transcript';

interface Turn {
  customer: ConversationEvent;
  reply?: ConversationEvent;
}

export default function TryAgentPage() {
  const agents = useAgents();
  const post = usePostEvent();
  const [agentId, setAgentId] = useState<string | null>(null);
  const [conversationId, setConversationId] = useState<string>();
  const [turns, setTurns] = useState<Turn[]>([]);
  const [text, setText] = useState('');
  const chosen = agentId ?? agents.data?.[0]?.id ?? null;

  const restart = (id: string | null) => {
    setAgentId(id);
    setConversationId(undefined);
    setTurns([]);
  };

  const send = (e: FormEvent) => {
    e.preventDefault();
    if (!chosen) return;
    post.mutate(
      { content: text, role: 'user', ...(conversationId ? { interactionId: conversationId } : { botId: chosen }) },
      {
        onSuccess: (events) => {
          const [customer, reply] = events;
          if (!customer) return;
          setConversationId(customer.interactionId);
          setTurns([...turns, { customer, reply }]);
          setText('');
        },
      },
    );
  };

  return (
    <Stack>
      <Title order={1} size="h2">
        Try the agent
      </Title>
      <Text size="sm" c="dimmed">
        Write as a customer would. Each message goes through Generate Answer, so the conversation is also in the inbox.
      </Text>
      {agents.isPending && <Loading label="Loading agents…" />}
      {agents.error && <ErrorState error={agents.error} title="The agents could not be loaded" />}
      {agents.data && agents.data.length === 0 && <Empty>No agents yet: create one to talk to.</Empty>}
      {agents.data && (
        <Group align="end">
          {agents.data.length > 0 && (
            <Select
              label="Agent"
              data={agents.data.map((a) => ({ value: a.id, label: a.name }))}
              value={chosen}
              onChange={restart}
              allowDeselect={false}
              w={260}
            />
          )}
          <NewAgent onCreated={restart} />
        </Group>
      )}
      {chosen && (
        <Paper withBorder p="md">
          <Stack gap="md" component="section" aria-label="Chat">
            {turns.length === 0 && <Empty>No messages yet.</Empty>}
            {turns.map((turn) => (
              <Grid key={turn.customer.id}>
                <Grid.Col span={{ base: 12, md: 7 }}>
                  <Stack gap="xs">
                    <EventBubble event={turn.customer} showExtras={false} />
                    {turn.reply ? <EventBubble event={turn.reply} showExtras={false} /> : <Empty>No reply (a reply rule says not to answer).</Empty>}
                  </Stack>
                </Grid.Col>
                <Grid.Col span={{ base: 12, md: 5 }}>{turn.reply?.role === 'parleybot' && <TracePanel event={turn.reply} />}</Grid.Col>
              </Grid>
            ))}
            <form onSubmit={send} aria-label="Message to the agent">
              <Stack gap="xs">
                <Textarea label="Your message" autosize minRows={2} value={text} onChange={(e) => setText(e.currentTarget.value)} required />
                {post.error && <ErrorState error={post.error} title="The message was not sent" />}
                <Group>
                  <WriteButton type="submit" loading={post.isPending}>
                    Send
                  </WriteButton>
                  {conversationId && (
                    <>
                      <Button variant="subtle" onClick={() => restart(chosen)}>
                        New conversation
                      </Button>
                      <Link href={`/conversations/${conversationId}`}>Open in Conversations</Link>
                    </>
                  )}
                </Group>
              </Stack>
            </form>
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}
