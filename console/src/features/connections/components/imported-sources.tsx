// The sources an import created or updated, each with the state of its ingestion job (looked at
// again every second while it runs, as the Sources list does) and linked to its page.
import { Anchor, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'wouter';
import { ErrorState } from '../../../components/states';
import { TableHead } from '../../../components/table-head';
import { SourceStatus } from '../../sources/components/source-status';
import { useImportedSources } from '../api';

export function ImportedSources({ ids }: { ids: string[] }) {
  const sources = useImportedSources(ids);
  if (ids.length === 0) return null;
  return (
    <Stack gap="xs" component="section" aria-label="Imported sources">
      <Title order={2} size="h4">
        Imported sources
      </Title>
      <Text size="sm">
        Each is ingested in the background; they are also on the{' '}
        <Anchor component={Link} href="~/console/sources">
          Sources list
        </Anchor>
        , from where they can be made into articles.
      </Text>
      <Table aria-label="Imported sources" striped>
        <TableHead columns={['Title', 'Type', 'State']} />
        <Table.Tbody>
          {sources.map((query, index) => (
            <Table.Tr key={ids[index]}>
              {query.data ? (
                <>
                  <Table.Td>
                    <Anchor component={Link} href={`~/console/sources/${query.data.id}`}>
                      {query.data.title}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{query.data.type ?? query.data.source}</Table.Td>
                  <Table.Td>
                    <SourceStatus source={query.data} withReason />
                  </Table.Td>
                </>
              ) : (
                <Table.Td colSpan={3}>{query.error ? <ErrorState error={query.error} title="The source could not be read" /> : 'Loading…'}</Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
