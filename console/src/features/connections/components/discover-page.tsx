// Importing from one connected provider (/console/connections/{provider}): what the connection can
// read (the discover route, every page of the provider's listing, minus what was imported) to pick
// from, or for Google Drive a file by id; then the sources the import made, followed until ingested.
import { Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'wouter';
import { BackLink } from '../../../components/back-link';
import { Empty, ErrorState, Loading } from '../../../components/states';
import { useConnection, useResources } from '../api';
import { type ProviderSpec, resourceRows } from '../providers';
import { DriveFiles } from './drive-files';
import { ImportedSources } from './imported-sources';
import { ResourcePicker } from './resource-picker';

function Discovery({ spec, onImported }: { spec: ProviderSpec; onImported(ids: string[]): void }) {
  const resources = useResources(spec.id, true);
  return (
    <Stack gap="xs" component="section" aria-label="Resources found">
      <Group justify="space-between">
        <Title order={2} size="h4">
          Resources found
        </Title>
        <Button variant="default" size="xs" loading={resources.isFetching} onClick={() => resources.refetch()}>
          Ask {spec.label} again
        </Button>
      </Group>
      {resources.isPending && <Loading label={`Asking ${spec.label} what this connection can read…`} />}
      {resources.error && <ErrorState error={resources.error} title={`${spec.label} could not be listed`} />}
      {/* A new answer starts the picks over: the rows may have changed. */}
      {resources.data && <ResourcePicker key={resources.dataUpdatedAt} spec={spec} rows={resourceRows(spec.id, resources.data)} onImported={onImported} />}
    </Stack>
  );
}

export function DiscoverPage({ spec }: { spec: ProviderSpec }) {
  const connection = useConnection(spec.id);
  const [imported, setImported] = useState<string[]>([]);
  const add = (ids: string[]) => setImported((current) => [...ids.filter((id) => !current.includes(id)), ...current]);
  return (
    <Stack>
      <BackLink href="/" label="the connections" />
      <Title order={1} size="h2">
        Import from {spec.label}
      </Title>
      {connection.isPending && <Loading label={`Loading the ${spec.label} connection…`} />}
      {connection.error && <ErrorState error={connection.error} />}
      {connection.data && !connection.data.connected && (
        <Empty>
          {spec.label} is not connected in this workspace.{' '}
          <Anchor component={Link} href="/" size="sm">
            Connect it first
          </Anchor>
          .
        </Empty>
      )}
      {connection.data?.connected && (
        <>
          <Text size="sm">
            Connected as {connection.data.account}. {spec.discovers ? `Pick the ${spec.resources} to import` : `Import ${spec.resources}`}: each becomes a
            source, ingested now and refreshed when it changes.
          </Text>
          {spec.discovers ? <Discovery spec={spec} onImported={add} /> : <DriveFiles onImported={add} />}
          <ImportedSources ids={imported} />
        </>
      )}
    </Stack>
  );
}
