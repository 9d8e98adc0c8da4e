// The chain of external API call steps in run order: each shown, edited in place, moved up or down
// (renumbered 1..n), removed after a confirmation; and a new step at the end (at most 10).
import { Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { ConfirmDelete } from '../../../components/confirm-delete';
import { Empty, ErrorState } from '../../../components/states';
import { WriteButton } from '../../../components/write-button';
import { type DataStep, type ToolWithSteps, useDeleteStep, useReorderSteps } from '../api';
import { StepDetails } from './step-card';
import { StepForm } from './step-form';

const MAX_STEPS = 10;

export function StepList({ tool }: { tool: ToolWithSteps }) {
  const reorder = useReorderSteps();
  const remove = useDeleteStep();
  const [editing, setEditing] = useState<string | null>(null);
  const [removing, setRemoving] = useState<DataStep | null>(null);
  const steps = tool.steps;
  const move = (index: number, by: number) => {
    const next = [...steps];
    const [step] = next.splice(index, 1);
    if (step) next.splice(index + by, 0, step);
    reorder.mutate(next);
  };
  return (
    <Stack>
      <Text size="sm">
        Steps run in this order. URL, header values and body fill {'${input}'} from the inputs and {'${step.output}'} from an earlier step&apos;s mapped output (by
        its name or id). Secret values are stored sealed and shown as ********.
      </Text>
      {steps.length === 0 && <Empty>No external API calls yet: the {tool.alwaysGet ? 'attribute' : 'action'} does nothing until it has a step.</Empty>}
      {steps.map((step, index) => (
        <Paper key={step.id} withBorder p="md" component="section" aria-label={`Step ${index + 1}: ${step.name}`}>
          <Stack gap="sm">
            <Group justify="space-between">
              <Title order={3} size="h5">
                Step {index + 1}: {step.name}
              </Title>
              <Group gap="xs">
                <WriteButton size="xs" variant="default" disabled={index === 0 || reorder.isPending} onClick={() => move(index, -1)} aria-label={`Move ${step.name} up`}>
                  Move up
                </WriteButton>
                <WriteButton size="xs" variant="default" disabled={index === steps.length - 1 || reorder.isPending} onClick={() => move(index, 1)} aria-label={`Move ${step.name} down`}>
                  Move down
                </WriteButton>
                <WriteButton size="xs" variant="default" onClick={() => setEditing(editing === step.id ? null : step.id)} aria-label={`Edit ${step.name}`}>
                  Edit
                </WriteButton>
                <WriteButton size="xs" variant="default" color="red" onClick={() => setRemoving(step)} aria-label={`Remove ${step.name}`}>
                  Remove
                </WriteButton>
              </Group>
            </Group>
            {editing === step.id ? (
              <StepForm toolId={tool.id} step={step} inputs={tool.inputFields} earlier={steps.slice(0, index)} onDone={() => setEditing(null)} />
            ) : (
              <StepDetails step={step} inputs={tool.inputFields} earlier={steps.slice(0, index)} />
            )}
          </Stack>
        </Paper>
      ))}
      {reorder.error && <ErrorState error={reorder.error} title="The steps were not reordered" />}
      {editing === 'new' ? (
        <Paper withBorder p="md" component="section" aria-label="New step">
          <Title order={3} size="h5" mb="sm">
            New step {steps.length + 1}
          </Title>
          <StepForm toolId={tool.id} inputs={tool.inputFields} earlier={steps} onDone={() => setEditing(null)} />
        </Paper>
      ) : (
        <Group>
          <WriteButton onClick={() => setEditing('new')} disabled={steps.length >= MAX_STEPS} title={steps.length >= MAX_STEPS ? `At most ${MAX_STEPS} steps` : undefined}>
            Add a step
          </WriteButton>
        </Group>
      )}
      <ConfirmDelete
        opened={removing !== null}
        onClose={() => setRemoving(null)}
        action="Remove step"
        pending={remove.isPending}
        error={remove.error}
        errorTitle="The step was not removed"
        onConfirm={() => removing && remove.mutate(removing.id, { onSuccess: () => setRemoving(null) })}
      >
        Remove the step “{removing?.name}”? Later steps that use its outputs will fail.
      </ConfirmDelete>
    </Stack>
  );
}
