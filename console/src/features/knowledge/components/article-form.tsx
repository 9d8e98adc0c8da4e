// The article editor: title, body (Markdown), agent instruction, questions, keywords, escalation.
import { Checkbox, Paper, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { Markdown } from '../../../components/markdown';
import { type FormEvent, type ReactNode, useState } from 'react';
import type { ArticleContent } from '../api';

const EMPTY: ArticleContent = { title: '', mainKnowledge: '', agentInstruction: '', questions: [], keywords: [], escalation: false };

/** Lines of a text area as list items: trimmed, empty lines dropped. */
const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

export function ArticleForm({
  initial = EMPTY,
  onSubmit,
  children,
}: {
  initial?: ArticleContent;
  onSubmit(content: ArticleContent, submitter: string | undefined): void;
  /** The form's buttons and its error. */
  children: ReactNode;
}) {
  const [title, setTitle] = useState(initial.title);
  const [mainKnowledge, setMainKnowledge] = useState(initial.mainKnowledge);
  const [agentInstruction, setAgentInstruction] = useState(initial.agentInstruction);
  const [questions, setQuestions] = useState(initial.questions.join('\n'));
  const [keywords, setKeywords] = useState(initial.keywords.join('\n'));
  const [escalation, setEscalation] = useState(initial.escalation);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter?.getAttribute('name') ?? undefined;
    onSubmit({ title, mainKnowledge, agentInstruction, questions: lines(questions), keywords: lines(keywords), escalation }, submitter);
  };

  return (
    <form onSubmit={submit}>
      <Stack gap="sm">
        <TextInput label="Title" required value={title} onChange={(e) => setTitle(e.currentTarget.value)} />
        <Textarea
          label="Knowledge"
          description="What the agent may tell customers (Markdown)"
          required
          autosize
          minRows={6}
          value={mainKnowledge}
          onChange={(e) => setMainKnowledge(e.currentTarget.value)}
        />
        {mainKnowledge.trim() && (
          <Paper withBorder p="sm" component="section" aria-label="Preview of the knowledge">
            <Text size="xs" fw={700} mb={4}>
              Preview
            </Text>
            <Markdown text={mainKnowledge} />
          </Paper>
        )}
        <Textarea
          label="Agent instruction"
          description="How the agent should use this article (not shown to customers)"
          autosize
          minRows={2}
          value={agentInstruction}
          onChange={(e) => setAgentInstruction(e.currentTarget.value)}
        />
        <Textarea label="Questions" description="One per line" autosize minRows={2} value={questions} onChange={(e) => setQuestions(e.currentTarget.value)} />
        <Textarea label="Keywords" description="One per line" autosize minRows={2} value={keywords} onChange={(e) => setKeywords(e.currentTarget.value)} />
        <Checkbox label="Hand over to a person after answering (escalation)" checked={escalation} onChange={(e) => setEscalation(e.currentTarget.checked)} />
        {children}
      </Stack>
    </form>
  );
}
