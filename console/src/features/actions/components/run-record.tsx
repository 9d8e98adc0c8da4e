// What a test run did, step by step: the request as sent (method, URL after substitution, headers
// with secrets masked, body), status, duration, attempts, the response body and the mapped output,
// and a failure in the API's words (its kind and message).
import { Alert, Badge, Code, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { StepRecord, ToolRun } from '../api';
import { NameValueTable } from './name-value-table';

const json = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value, null, 2));

function Failure({ error }: { error: NonNullable<StepRecord['error']> }) {
  return (
    <Alert color="red" title={`Failed: ${error.kind}`} role="alert">
      {error.message}
    </Alert>
  );
}

export function StepRecordView({ record, index }: { record: StepRecord; index?: number }) {
  const title = index === undefined ? `Step ${record.name}` : `Step ${index + 1}: ${record.name}`;
  const headers = Object.entries(record.request.headers);
  return (
    <Paper withBorder p="md" component="section" aria-label={`${title} as run`}>
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={4} size="h5">
            {title}
          </Title>
          <Group gap="xs">
            <Badge color={record.error ? 'red.9' : 'teal.9'} role="group" aria-label="Status">
              {record.status === null ? 'no response' : `HTTP ${record.status}`}
            </Badge>
            <Text size="sm" role="group" aria-label="Duration">
              {record.durationMs.toFixed(0)} ms
            </Text>
            <Text size="sm">
              {record.attempts} attempt{record.attempts === 1 ? '' : 's'}
            </Text>
          </Group>
        </Group>
        <Text size="sm" fw={500}>
          Request as sent
        </Text>
        <Code block role="group" aria-label="Request line">
          {record.request.method} {record.request.url}
        </Code>
        {headers.length > 0 && (
          <NameValueTable label="Request headers" columns={['Header', 'Value']} rows={headers} />
        )}
        {record.request.body !== null && record.request.body !== undefined && (
          <Code block role="group" aria-label="Request body">
            {json(record.request.body)}
          </Code>
        )}
        <Text size="sm" fw={500}>
          Response
        </Text>
        <Code block role="group" aria-label="Response body" mah={320} style={{ overflow: 'auto' }}>
          {record.responseBody === null || record.responseBody === undefined ? '(none)' : json(record.responseBody)}
        </Code>
        <Text size="sm" fw={500}>
          Mapped output
        </Text>
        <Code block role="group" aria-label="Mapped output">
          {json(record.output)}
        </Code>
        {record.error && <Failure error={record.error} />}
      </Stack>
    </Paper>
  );
}

export function RunView({ run }: { run: ToolRun }) {
  return (
    <Stack gap="sm" role="region" aria-label="Test result">
      <Group gap="xs">
        <Badge color={run.success ? 'teal.9' : 'red.9'} size="lg">
          {run.success ? 'Succeeded' : 'Failed'}
        </Badge>
        <Text size="sm">
          {run.toolName}: {run.steps.length} step(s) ran
        </Text>
      </Group>
      {run.error && <Failure error={run.error} />}
      <Text size="sm" fw={500}>
        Output
      </Text>
      <Code block role="group" aria-label="Output">
        {json(run.output)}
      </Code>
      {run.steps.map((record, index) => (
        <StepRecordView key={record.stepId} record={record} index={index} />
      ))}
    </Stack>
  );
}
