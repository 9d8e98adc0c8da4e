// The Connections page: one card per provider (GET each provider's connection).
import { SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { PROVIDERS } from '../providers';
import { ProviderCard } from './provider-card';

export function ConnectionList() {
  return (
    <Stack>
      <Title order={1} size="h2">
        Connections
      </Title>
      <Text size="sm">
        Connect a notes workspace, a help center, a wiki or a drive, then pick what to import: each page, article or file becomes a source, ingested
        like a web page and refreshed when it changes.
      </Text>
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        {PROVIDERS.map((spec) => (
          <ProviderCard key={spec.id} spec={spec} />
        ))}
      </SimpleGrid>
    </Stack>
  );
}
