// A published rule's versions: a diff between any two (name, description, trigger, agents and the
// flow in words, both read with their flow) and Restore (the version's content as a new version).
import { Badge, Group, Select, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { DiffView } from '../../../components/diff-view';
import { Empty, ErrorState, Loading } from '../../../components/states';
import { TableHead } from '../../../components/table-head';
import { WriteButton } from '../../../components/write-button';
import { type RuleVersion, useFlowNames, useRestoreVersion, useVersion, useVersions } from '../api';
import { type FlowNames, type FlowNode, flowOutline } from '../flow';

function fieldsOf(version: RuleVersion, agentName: (id: string) => string, names: FlowNames) {
  const item = version.item;
  return [
    ['Name', item.name],
    ['Description', item.description],
    ['Trigger', item.triggerType],
    ['Agents', item.botIds.map(agentName).join('\n')],
    ['Flow', flowOutline(item.flowConfig as FlowNode | null, '', names).join('\n')],
  ] as const;
}

function Compare({ ruleId, from, to, agentName }: { ruleId: string; from: string; to: string; agentName: (id: string) => string }) {
  const before = useVersion(ruleId, from);
  const after = useVersion(ruleId, to);
  const names = useFlowNames(before.data?.item.flowConfig as FlowNode | null, after.data?.item.flowConfig as FlowNode | null);
  if (before.isPending || after.isPending) return <Loading label="Loading both versions…" />;
  if (before.error || after.error) return <ErrorState error={before.error ?? after.error} title="A version could not be loaded" />;
  const a = fieldsOf(before.data, agentName, names);
  const b = fieldsOf(after.data, agentName, names);
  return (
    <section aria-label="Differences">
      {a.map(([label, text], i) => (
        <DiffView key={label} label={label} before={text} after={b[i]?.[1] ?? ''} />
      ))}
    </section>
  );
}

export function RuleVersions({ ruleId, agentName }: { ruleId: string; agentName: (id: string) => string }) {
  const versions = useVersions(ruleId);
  const restore = useRestoreVersion();
  const [from, setFrom] = useState<string | null>(null);
  const [to, setTo] = useState<string | null>(null);
  if (versions.isPending) return <Loading label="Loading versions…" />;
  if (versions.error) return <ErrorState error={versions.error} title="The versions could not be loaded" />;
  const list = versions.data.versions;
  if (list.length === 0) return <Empty>No versions yet.</Empty>;
  const numberOf = (id: string | null) => list.find((v) => v.versionId === id)?.version;
  const options = list.map((v) => ({ value: v.versionId, label: `Version ${v.version}` }));
  return (
    <Stack>
      <Table aria-label="Versions">
        <TableHead columns={['Version', 'Saved', 'Name', 'Restore']} />
        <Table.Tbody>
          {list.map((v) => {
            const current = v.versionId === versions.data.currentPublishedVersionId;
            return (
              <Table.Tr key={v.versionId}>
                <Table.Td>
                  <Group gap="xs">
                    Version {v.version}
                    {current && <Badge color="teal.9">Current</Badge>}
                  </Group>
                  {v.restoredFromVersionId && <Text size="xs">restored from version {numberOf(v.restoredFromVersionId) ?? v.restoredFromVersionId}</Text>}
                </Table.Td>
                <Table.Td>{new Date(v.createdAt).toLocaleString()}</Table.Td>
                <Table.Td>{v.item.name}</Table.Td>
                <Table.Td>
                  {!current && (
                    <WriteButton size="xs" variant="default" loading={restore.isPending && restore.variables?.versionId === v.versionId} onClick={() => restore.mutate({ id: ruleId, versionId: v.versionId })}>
                      Restore version {v.version}
                    </WriteButton>
                  )}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      {restore.error && <ErrorState error={restore.error} title="The version was not restored" />}
      {restore.data && <Text size="sm" role="status">Restored as version {restore.data.version}.</Text>}
      <Group align="end">
        <Select label="Compare version" data={options} value={from} onChange={setFrom} w={180} />
        <Select label="with version" data={options} value={to} onChange={setTo} w={180} />
      </Group>
      {from && to && <Compare ruleId={ruleId} from={from} to={to} agentName={agentName} />}
    </Stack>
  );
}
