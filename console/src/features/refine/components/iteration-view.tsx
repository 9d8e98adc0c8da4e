// One iteration of a session: its state, summary and warnings, each change with its root cause and
// a diff of its draft against what is live, and the original and replayed answers side by side.
import { Alert, Badge, Box, Group, List, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Empty, Loading } from '../../../components/states';
import { type Change, type Iteration, isRunning, type NoteWarning, type RefineSession } from '../api';
import { PromptDraftDiff } from '../../agents/components/prompt-draft-diff';
import { useArticlesById } from '../../knowledge/api';
import { ArticleDraftDiff } from './draft-diff';

// Filled badges in shade 9 (gray 7): white text on them meets WCAG's 4.5:1, as the trace panel's do.
const STATES: Record<Iteration['status'], { label: string; color: string }> = {
  queued: { label: 'Queued', color: 'gray.7' },
  generating_changes: { label: 'Finding the cause', color: 'blue.9' },
  replaying: { label: 'Replaying the message', color: 'blue.9' },
  ready: { label: 'Ready to publish', color: 'teal.9' },
  no_change: { label: 'No change', color: 'gray.7' },
  failed: { label: 'Failed', color: 'red.9' },
  published: { label: 'Published', color: 'teal.9' },
  superseded: { label: 'Superseded', color: 'gray.7' },
};

const CHANGE_TYPES: Record<Change['changeType'], string> = {
  update_article: 'Update an article',
  create_article: 'New article',
  update_prompt: "Change the agent's prompt",
  update_rule: 'Change a rule',
};

export function IterationState({ iteration }: { iteration: Iteration }) {
  const state = STATES[iteration.status];
  return (
    <Badge color={state.color}>
      {state.label}
    </Badge>
  );
}

function Warnings({ warnings, title }: { warnings: NoteWarning[]; title: string }) {
  if (warnings.length === 0) return null;
  return (
    // The title in the text colour: Mantine's yellow title on the yellow background is 2.7:1 (axe).
    <Alert color="yellow" title={title} role="note" styles={{ label: { color: 'var(--mantine-color-text)' } }}>
      <List size="sm">
        {warnings.map((w, i) => (
          <List.Item key={i}>
            “{w.fragment}”: {w.message}
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}

function ChangeView({ change, agentId, showDrafts }: { change: Change; agentId: string; showDrafts: boolean }) {
  const { rootCause } = change;
  return (
    <Paper component="article" aria-label={`Change: ${CHANGE_TYPES[change.changeType]}`} withBorder p="sm">
      <Stack gap="xs">
        <Title order={5}>
          {CHANGE_TYPES[change.changeType]}
        </Title>
        <Box component="section" aria-label="Root cause">
          <Group gap="xs">
            <Text size="sm" fw={600}>
              Root cause:
            </Text>
            <Badge variant="outline">Stage: {rootCause.failureStage}</Badge>
            <Badge variant="outline">Mode: {rootCause.failureMode}</Badge>
          </Group>
          <Text size="sm" mt={4} style={{ whiteSpace: 'pre-wrap' }}>
            {rootCause.reasoning}
          </Text>
        </Box>
        <Warnings warnings={change.warnings} title="Parts of the note this change does not carry out" />
        {showDrafts && change.draftArticleId && <ArticleDraftDiff draftId={change.draftArticleId} />}
        {showDrafts && change.draftPromptVersionId && <PromptDraftDiff agentId={agentId} draftId={change.draftPromptVersionId} />}
        {change.draftRuleVersionId && (
          <Text size="sm">
            Drafts the next version of rule {String(rootCause.target.ruleId ?? '')}; it becomes the rule's live version when published.
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

function Answer({ label, text }: { label: string; text: string | null | undefined }) {
  return (
    <Paper component="section" aria-label={label} withBorder p="sm" bg="gray.0">
      <Text size="xs" fw={700} mb={4}>
        {label}
      </Text>
      {text ? (
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
          {text}
        </Text>
      ) : (
        <Empty>No answer.</Empty>
      )}
    </Paper>
  );
}

export function IterationView({ session, iteration }: { session: RefineSession; iteration: Iteration }) {
  // Drafts exist while the iteration is ready in an active session; publish applies them, close discards them.
  const showDrafts = session.status === 'active' && iteration.status === 'ready';
  // Every article draft and the live article it changes in one request, not two per change.
  const articleIds = showDrafts
    ? iteration.changes.flatMap((c) => (c.draftArticleId ? [c.draftArticleId, ...(c.rootCause.target.articleId ? [c.rootCause.target.articleId] : [])] : []))
    : [];
  const articles = useArticlesById(articleIds);
  const draftsHere = articleIds.length === 0 || articles.data !== undefined || articles.error !== null;
  return (
    <Stack component="section" aria-label={`Iteration ${iteration.iterationNumber}`}>
      <Group gap="xs">
        <Title order={3} size="h4">
          Iteration {iteration.iterationNumber}
        </Title>
        <IterationState iteration={iteration} />
        {iteration.confidence && <Badge variant="outline">Confidence {iteration.confidence}</Badge>}
      </Group>
      <Text size="sm">
        <Text span fw={600}>
          Note:
        </Text>{' '}
        {iteration.feedbackNote}
      </Text>
      {isRunning(iteration) && <Loading label={`${STATES[iteration.status].label}…`} />}
      {iteration.error && (
        <Alert color="red" title="The iteration failed" role="alert">
          {iteration.error}
        </Alert>
      )}
      {iteration.summary && <Text size="sm">{iteration.summary}</Text>}
      <Warnings warnings={iteration.warnings} title="Parts of the note that were not understood" />
      {/* A failed iteration made no change: its error says why. */}
      {!isRunning(iteration) && !(iteration.status === 'failed' && iteration.changes.length === 0) && (
        <Stack gap="sm" component="section" aria-label="Changes">
          <Title order={4} size="h5">
            Changes
          </Title>
          {iteration.changes.length === 0 ? (
            <Empty>No change was proposed.</Empty>
          ) : (
            iteration.changes.map((change) => <ChangeView key={change.id} change={change} agentId={session.botId} showDrafts={showDrafts && draftsHere} />)
          )}
          {showDrafts && !draftsHere && <Loading label="Loading the drafts…" />}
        </Stack>
      )}
      {iteration.newAnswerSnapshot && (
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          <Answer label="Original answer" text={session.originalAnswerSnapshot?.content ?? iteration.oldAnswerSnapshot?.content} />
          <Answer label="Replayed answer" text={iteration.newAnswerSnapshot.content} />
        </SimpleGrid>
      )}
    </Stack>
  );
}
