// A conversation's events by role: the customer, the agent (with its trace, feedback and Refine with AI), a human
// agent, another bot; internal comments stand apart from messages.
import { Badge, Box, Button, Checkbox, Group, Paper, Select, Stack, Text, Textarea } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { Link } from 'wouter';
import { ErrorState } from '../../../components/states';
import { WriteButton } from '../../../components/write-button';
import { type ConversationEvent, useFeedback } from '../api';
import { TracePanel } from './trace-panel';
import { preloadPage } from '../../../app/pages';

const ROLES: Record<ConversationEvent['role'], { label: string; color: string; align: 'flex-start' | 'flex-end' }> = {
  user: { label: 'Customer', color: 'gray.0', align: 'flex-start' },
  parleybot: { label: 'Agent', color: 'blue.0', align: 'flex-end' },
  agent: { label: 'Human agent', color: 'teal.0', align: 'flex-end' },
  otherbot: { label: 'Other bot', color: 'gray.1', align: 'flex-end' },
};

function Feedback({ event }: { event: ConversationEvent }) {
  const feedback = useFeedback();
  const [rating, setRating] = useState<string | null>(event.csatRating === null ? null : String(event.csatRating));
  const [resolved, setResolved] = useState(event.resolved ?? false);
  const [note, setNote] = useState(event.feedback ?? '');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    feedback.mutate({ eventId: event.id, csatRating: rating ? Number(rating) : undefined, resolved, feedback: note || undefined });
  };
  return (
    <form onSubmit={submit} aria-label="Feedback on this reply">
      <Stack gap="xs">
        <Group align="end">
          <Select label="Rating" data={['1', '2', '3', '4', '5']} value={rating} onChange={setRating} w={110} clearable />
          <Checkbox label="Resolved the question" checked={resolved} onChange={(e) => setResolved(e.currentTarget.checked)} />
        </Group>
        <Textarea label="Feedback" autosize minRows={1} value={note} onChange={(e) => setNote(e.currentTarget.value)} />
        {feedback.error && <ErrorState error={feedback.error} title="The feedback was not saved" />}
        {feedback.isSuccess && (
          <Text size="sm" role="status">
            Feedback saved.
          </Text>
        )}
        <Group>
          <WriteButton type="submit" size="xs" loading={feedback.isPending}>
            Save feedback
          </WriteButton>
        </Group>
      </Stack>
    </form>
  );
}

function AgentReplyExtras({ event }: { event: ConversationEvent }) {
  const [open, setOpen] = useState<'trace' | 'feedback' | undefined>();
  const toggle = (what: 'trace' | 'feedback') => setOpen(open === what ? undefined : what);
  return (
    <Stack gap="xs" mt="xs">
      <Group gap="xs">
        <Button size="compact-xs" variant="light" aria-expanded={open === 'trace'} onClick={() => toggle('trace')}>
          {open === 'trace' ? 'Hide trace' : 'Show trace'}
        </Button>
        <Button size="compact-xs" variant="light" aria-expanded={open === 'feedback'} onClick={() => toggle('feedback')}>
          Feedback
        </Button>
        <Button
          component={Link}
          href={`~/console/refine/${event.interactionId}/${event.id}`}
          size="compact-xs"
          variant="light"
          onPointerEnter={() => preloadPage('/refine')}
          onFocus={() => preloadPage('/refine')}
        >
          Refine with AI
        </Button>
        {event.csatRating !== null && <Badge variant="outline">Rated {event.csatRating}/5</Badge>}
      </Group>
      {open === 'trace' && <TracePanel event={event} />}
      {open === 'feedback' && <Feedback event={event} />}
    </Stack>
  );
}

export function EventBubble({ event, showExtras = true }: { event: ConversationEvent; showExtras?: boolean }) {
  const role = ROLES[event.role];
  const internal = event.type === 'internal_comment';
  return (
    <Box style={{ display: 'flex', justifyContent: role.align }}>
      <Paper
        component="article"
        aria-label={`${internal ? 'Internal comment' : role.label} at ${new Date(event.createdAt).toLocaleTimeString()}`}
        withBorder
        p="sm"
        maw="85%"
        bg={internal ? 'yellow.0' : role.color}
        style={internal ? { borderStyle: 'dashed' } : undefined}
      >
        <Group gap="xs" mb={4}>
          <Text size="xs" fw={700}>
            {role.label}
          </Text>
          {internal && (
            <Badge size="xs" color="yellow" autoContrast>
              Internal comment
            </Badge>
          )}
          {event.handover && (
            <Badge size="xs" color="red.9">
              Handed over
            </Badge>
          )}
          <Text size="xs" c="dimmed">
            {new Date(event.createdAt).toLocaleString()}
          </Text>
        </Group>
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
          {event.message}
        </Text>
        {event.usedArticles.length > 0 && (
          <Text size="xs" c="dimmed" mt={4}>
            From: {event.usedArticles.map((a) => a.title).join(', ')}
          </Text>
        )}
        {showExtras && event.role === 'parleybot' && <AgentReplyExtras event={event} />}
      </Paper>
    </Box>
  );
}
