// Refine with AI for one agent reply: the customer's message and the reply, a note that starts an
// iteration, the iteration as it runs and what it proposes, then publish, another note, or close.
import { Badge, Group, List, Stack, Text, Textarea, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { BackLink } from '../../../components/back-link';
import { GateRefusal, isGateRefusal } from '../../../components/gate-refusal';
import { Empty, ErrorState, Loading } from '../../../components/states';
import { WriteButton } from '../../../components/write-button';
import { useConversation } from '../../conversations/api';
import { EventBubble } from '../../conversations/components/transcript';
import { isRunning, type RefineSession, useCloseSession, usePublishIteration, useRefineSession, useReplySession, useStartIteration } from '../api';
import { IterationState, IterationView } from './iteration-view';

function NoteForm({ conversationId, eventId, again, onStarted }: { conversationId: string; eventId: string; again: boolean; onStarted(sessionId: string): void }) {
  const start = useStartIteration();
  const [note, setNote] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    start.mutate(
      { conversationId, eventId, feedbackNote: note.trim() },
      {
        onSuccess: (started) => {
          setNote('');
          onStarted(started.sessionId);
        },
      },
    );
  };
  const label = again ? 'A new note for another iteration' : 'What was wrong with this answer?';
  return (
    <form onSubmit={submit} aria-label={label}>
      <Stack gap="xs">
        <Textarea
          label={label}
          description="Write it as you would to a colleague: the fact or the step the agent missed."
          autosize
          minRows={2}
          maxLength={2000}
          value={note}
          onChange={(e) => setNote(e.currentTarget.value)}
          required
        />
        {start.error && <ErrorState error={start.error} title="The iteration was not started" />}
        <Group>
          <WriteButton type="submit" disabled={!note.trim()} loading={start.isPending}>
            {again ? 'Start another iteration' : 'Refine'}
          </WriteButton>
        </Group>
      </Stack>
    </form>
  );
}

function SessionActions({ session }: { session: RefineSession }) {
  const publish = usePublishIteration();
  const close = useCloseSession();
  const latest = session.latestIteration;
  return (
    <Stack gap="xs">
      <Group>
        {latest?.status === 'ready' && (
          <WriteButton loading={publish.isPending} onClick={() => publish.mutate({ sessionId: session.id, iterationId: latest.id })}>
            Publish
          </WriteButton>
        )}
        <WriteButton variant="default" color="red" loading={close.isPending} onClick={() => close.mutate(session.id)}>
          Close the session
        </WriteButton>
      </Group>
      {latest && <GateRefusal error={publish.error} pending={publish.isPending} onForce={() => publish.mutate({ sessionId: session.id, iterationId: latest.id, force: true })} />}
      {publish.error && !isGateRefusal(publish.error) && <ErrorState error={publish.error} title="Nothing was published" />}
      {close.error && <ErrorState error={close.error} title="The session was not closed" />}
    </Stack>
  );
}

function SessionView({ session }: { session: RefineSession }) {
  const [latest, ...earlier] = session.iterations;
  return (
    <Stack>
      <Group gap="xs">
        <Title order={2} size="h3">
          Session
        </Title>
        <Badge variant="outline">{session.status === 'active' ? 'Active' : session.status === 'published' ? 'Published' : 'Closed'}</Badge>
        {session.publishedAt && (
          <Text size="sm" role="status">
            Published {new Date(session.publishedAt).toLocaleString()}: the drafts are live.
          </Text>
        )}
        {session.closedAt && (
          <Text size="sm" role="status">
            Closed {new Date(session.closedAt).toLocaleString()}
            {session.closedReason ? ` (${session.closedReason})` : ''}: its drafts were discarded.
          </Text>
        )}
      </Group>
      {latest ? <IterationView session={session} iteration={latest} /> : <Empty>No iteration yet.</Empty>}
      {/* Keyed by the latest iteration: a new one starts without the previous publish error. */}
      {session.status === 'active' && <SessionActions key={latest?.id} session={session} />}
      {earlier.length > 0 && (
        <section aria-label="Earlier iterations">
          <Title order={3} size="h5" mb={4}>
            Earlier iterations
          </Title>
          <List size="sm" spacing={4}>
            {earlier.map((iteration) => (
              <List.Item key={iteration.id}>
                Iteration {iteration.iterationNumber} <IterationState iteration={iteration} /> {iteration.feedbackNote}
              </List.Item>
            ))}
          </List>
        </section>
      )}
    </Stack>
  );
}

export function RefinePage({ conversationId, eventId }: { conversationId: string; eventId: string }) {
  const conversation = useConversation(conversationId);
  const active = useReplySession(conversationId, eventId);
  // The session this page started or found; kept after it ends, when the reply's route no longer returns it.
  const [sessionId, setSessionId] = useState<string>();
  const id = sessionId ?? active.data?.id;
  const session = useRefineSession(id);

  if (conversation.isPending || active.isPending) return <Loading label="Loading the reply…" />;
  if (conversation.error) return <ErrorState error={conversation.error} title="The conversation could not be loaded" />;
  if (active.error) return <ErrorState error={active.error} title="This reply cannot be refined" />;
  const events = conversation.data.events;
  const reply = events.find((e) => e.id === eventId);
  const question = reply ? events.slice(0, events.indexOf(reply)).findLast((e) => e.role === 'user') : undefined;
  const current = session.data;
  const running = isRunning(current?.latestIteration);

  return (
    <Stack>
      <BackLink href={`/conversations/${conversationId}`} label="the conversation" />
      <Title order={1} size="h2">
        Refine with AI
      </Title>
      {reply ? (
        <Stack gap="sm" component="section" aria-label="The reply">
          {question && <EventBubble event={question} showExtras={false} />}
          <EventBubble event={reply} showExtras={false} />
        </Stack>
      ) : (
        <ErrorState error={new Error(`event ${eventId} is not in this conversation`)} title="The reply could not be found" />
      )}
      {id && session.isPending && <Loading label="Loading the session…" />}
      {session.error && <ErrorState error={session.error} title="The session could not be loaded" />}
      {current && <SessionView session={current} />}
      {reply && !running && (
        <NoteForm conversationId={conversationId} eventId={eventId} again={current?.status === 'active'} onStarted={setSessionId} />
      )}
    </Stack>
  );
}
