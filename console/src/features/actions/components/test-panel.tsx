// Runs the action (the whole chain) or one step alone against the real APIs with test inputs. The
// routes need write scope, because the calls may change data; the result is an answer (a failure
// is `success: false` with its kind), shown step by step.
import { Group, Select, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { ErrorState } from '../../../components/states';
import { WriteButton } from '../../../components/write-button';
import { type InputField, type ToolWithSteps, useTestStep, useTestTool } from '../api';
import { RunView, StepRecordView } from './run-record';

/** A typed value for the API: numbers and booleans as such when they read as one, else the text. */
function typed(field: InputField, text: string): unknown {
  if (field.type === 'number' && text.trim() !== '' && !Number.isNaN(Number(text))) return Number(text);
  if (field.type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

export function TestPanel({ tool }: { tool: ToolWithSteps }) {
  const testTool = useTestTool();
  const testStep = useTestStep();
  const [values, setValues] = useState<Record<string, string>>({});
  const [target, setTarget] = useState<string>('chain');
  const [previous, setPrevious] = useState('');
  const [previousError, setPreviousError] = useState<string>();
  const inputs = () => Object.fromEntries(tool.inputFields.filter((f) => (values[f.name] ?? '') !== '').map((f) => [f.name, typed(f, values[f.name] ?? '')]));
  const run = () => {
    if (target === 'chain') return testTool.mutate({ id: tool.id, inputs: inputs() });
    let earlier: Record<string, Record<string, unknown>> | undefined;
    if (previous.trim()) {
      try {
        earlier = JSON.parse(previous) as Record<string, Record<string, unknown>>;
      } catch (e) {
        return setPreviousError(`not JSON: ${(e as Error).message}`);
      }
    }
    setPreviousError(undefined);
    testStep.mutate({ id: target, inputs: inputs(), previous: earlier });
  };
  const running = target === 'chain' ? testTool : testStep;
  if (tool.steps.length === 0) return <Text size="sm">Add an external API call step first: there is nothing to run.</Text>;
  return (
    <Stack>
      <form
        aria-label="Test inputs"
        onSubmit={(e) => {
          e.preventDefault();
          run();
        }}
      >
        <Stack gap="sm">
          <Text size="sm">Runs against the real APIs: a step that changes data changes it.</Text>
          <Select
            label="Run"
            data={[{ value: 'chain', label: `The whole ${tool.alwaysGet ? 'attribute' : 'action'} (${tool.steps.length} steps)` }, ...tool.steps.map((s, i) => ({ value: s.id, label: `Step ${i + 1} alone: ${s.name}` }))]}
            value={target}
            onChange={(v) => setTarget(v ?? 'chain')}
            allowDeselect={false}
            w={360}
          />
          {tool.inputFields.length === 0 && <Text size="sm">No inputs declared.</Text>}
          {tool.inputFields.map((field) =>
            field.type === 'boolean' ? (
              <Switch
                key={field.name}
                label={field.name}
                description={field.description || undefined}
                checked={values[field.name] === 'true'}
                onChange={(e) => setValues({ ...values, [field.name]: e.currentTarget.checked ? 'true' : 'false' })}
              />
            ) : (
              <TextInput
                key={field.name}
                label={field.name}
                description={[field.type, field.description].filter(Boolean).join(': ')}
                required={field.required}
                value={values[field.name] ?? ''}
                onChange={(e) => setValues({ ...values, [field.name]: e.currentTarget.value })}
                w={360}
              />
            ),
          )}
          {target !== 'chain' && (
            <Textarea
              label="Outputs of earlier steps (JSON)"
              description='For its ${step.key}: by step name or id, e.g. { "order": { "customerId": "c_42" } }'
              autosize
              minRows={2}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
              value={previous}
              onChange={(e) => setPrevious(e.currentTarget.value)}
              error={previousError}
            />
          )}
          <Group>
            <WriteButton type="submit" loading={running.isPending}>
              {target === 'chain' ? 'Run test' : 'Run this step'}
            </WriteButton>
          </Group>
        </Stack>
      </form>
      {running.error && <ErrorState error={running.error} title="The test did not run" />}
      {target === 'chain' && testTool.data && !testTool.isPending && <RunView run={testTool.data} />}
      {target !== 'chain' && testStep.data && !testStep.isPending && <StepRecordView record={testStep.data} />}
    </Stack>
  );
}
