// One conversation: its state, whether the team holds it (with the release), the transcript,
// evaluate, and a human agent's reply (role `agent`).
import { Badge, Group, Stack, Text, Textarea, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { ErrorState, Loading } from '../../../components/states';
import { WriteButton } from '../../../components/write-button';
import { useConversation, useEvaluate, usePostEvent } from '../api';
import { Takeover } from './takeover';
import { EventBubble } from './transcript';
import { BackLink } from '../../../components/back-link';

function HumanReply({ conversationId }: { conversationId: string }) {
  const post = usePostEvent();
  const [text, setText] = useState('');
  const send = (type: 'message' | 'internal_comment') => (e?: FormEvent) => {
    e?.preventDefault();
    post.mutate({ content: text, role: 'agent', type, interactionId: conversationId }, { onSuccess: () => setText('') });
  };
  return (
    <form onSubmit={send('message')} aria-label="Reply as a human agent">
      <Stack gap="xs">
        <Textarea label="Reply as a human agent" autosize minRows={2} value={text} onChange={(e) => setText(e.currentTarget.value)} required />
        {post.error && <ErrorState error={post.error} title="The reply was not sent" />}
        <Group>
          <WriteButton type="submit" loading={post.isPending && post.variables?.type === 'message'}>
            Send reply
          </WriteButton>
          <WriteButton variant="default" disabled={!text.trim()} onClick={send('internal_comment')} loading={post.isPending && post.variables?.type === 'internal_comment'}>
            Add internal comment
          </WriteButton>
        </Group>
      </Stack>
    </form>
  );
}

export function ConversationPage({ id }: { id: string }) {
  const conversation = useConversation(id);
  const evaluate = useEvaluate();
  if (conversation.isPending) return <Loading label="Loading the conversation…" />;
  if (conversation.error) return <ErrorState error={conversation.error} title="The conversation could not be loaded" />;
  const c = conversation.data;
  return (
    <Stack>
      <BackLink href="/" label="the inbox" />
      <div>
        <Title order={2}>{c.subjectPreview || 'Conversation'}</Title>
        <Group gap="xs" mt={4}>
          <Badge>{c.status}</Badge>
          <Badge variant="outline">{c.channel}</Badge>
          {c.latestSentiment && <Badge variant="outline">Sentiment {c.latestSentiment}</Badge>}
          {c.tags.map((tag) => (
            <Badge key={tag.id} variant="outline" color="gray">
              {tag.tagName}
            </Badge>
          ))}
        </Group>
      </div>
      <Takeover conversation={c} />
      <Group>
        <WriteButton variant="default" size="xs" loading={evaluate.isPending} onClick={() => evaluate.mutate(c.id)}>
          Evaluate the answers
        </WriteButton>
        {c.evaluation && (
          <Text size="sm" role="status">
            Evaluation: {c.evaluation.verdict.replace('_', ' ')}, score {c.evaluation.score.toFixed(2)}
          </Text>
        )}
      </Group>
      {evaluate.error && <ErrorState error={evaluate.error} title="The evaluation failed" />}
      <Stack gap="sm" component="section" aria-label="Transcript">
        {c.events.map((event) => (
          <EventBubble key={event.id} event={event} />
        ))}
      </Stack>
      <HumanReply conversationId={c.id} />
    </Stack>
  );
}
