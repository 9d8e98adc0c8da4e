// The Reply rules page: the three slots in precedence order and the test panel.
import { Stack, Text, Title } from '@mantine/core';
import { ErrorState, Loading } from '../../../components/states';
import { REPLY_TYPES, useReplyRules } from '../api';
import { SlotCard } from './slot-card';
import { TestPanel } from './test-panel';

export function ReplyRulesPage() {
  const rules = useReplyRules();
  return (
    <Stack>
      <Title order={1} size="h2">
        Reply rules
      </Title>
      <Text size="sm">
        For each customer message, the enabled slots are checked in this order and the first whose conditions hold decides how the agent replies. A slot holds when
        any of its groups holds (OR), a group when all its conditions hold (AND). When none holds, the agent answers directly.
      </Text>
      {rules.isPending && <Loading label="Loading the reply rules…" />}
      {rules.error && <ErrorState error={rules.error} title="The reply rules could not be loaded" />}
      {rules.data && REPLY_TYPES.map((slot) => <SlotCard key={slot.type} {...slot} rule={rules.data.find((r) => r.replyType === slot.type)} />)}
      <TestPanel />
    </Stack>
  );
}
