// One external API call step as stored: method and URL (placeholders marked), headers (secrets as
// ********), body, response mapping, and what each placeholder refers to.
import { Badge, Code, Group, Stack, Text } from '@mantine/core';
import { NameValueTable } from './name-value-table';
import { type DataStep, type InputField, MASK } from '../api';
import { Highlighted, PlaceholderList } from './placeholders';

export function StepDetails({ step, inputs, earlier }: { step: DataStep; inputs: InputField[]; earlier: DataStep[] }) {
  const headers = Object.entries(step.headers);
  const mapping = Object.entries(step.saveFromResponse);
  return (
    <Stack gap="xs">
      <Group gap="xs" wrap="nowrap">
        <Badge variant="filled" color="dark">
          {step.method}
        </Badge>
        <Code role="group" aria-label="URL" style={{ wordBreak: 'break-all' }}>
          <Highlighted text={step.url} />
        </Code>
      </Group>
      <PlaceholderList step={step} inputs={inputs} earlier={earlier} />
      {headers.length > 0 && (
        <NameValueTable
          label={`Headers of ${step.name}`}
          columns={['Header', 'Value']}
          rows={headers}
          value={(value) =>
            value === MASK ? (
              <Group gap="xs">
                <Code>{MASK}</Code>
                <Badge size="xs" color="gray" variant="light">
                  secret
                </Badge>
              </Group>
            ) : (
              <Code>
                <Highlighted text={String(value)} />
              </Code>
            )
          }
        />
      )}
      {step.body !== null && step.body !== undefined && (
        <div>
          <Text size="sm" fw={500}>
            Body
          </Text>
          <Code block role="group" aria-label={`Body of ${step.name}`}>
            <Highlighted text={JSON.stringify(step.body, null, 2)} />
          </Code>
        </div>
      )}
      {mapping.length > 0 ? (
        <NameValueTable label={`Response mapping of ${step.name}`} columns={['Output', 'Path in the response']} rows={mapping} />
      ) : (
        <Text size="sm" c="dimmed">
          Maps nothing from the response.
        </Text>
      )}
    </Stack>
  );
}
