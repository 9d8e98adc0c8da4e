// The link from a record's page back to the list it belongs to.
import { Text } from '@mantine/core';
import { Link } from 'wouter';

export function BackLink({ href, label }: { href: string; label: string }) {
  return (
    <Text size="sm">
      <Link href={href}>← Back to {label}</Link>
    </Text>
  );
}
