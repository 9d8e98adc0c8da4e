// The agents a rule applies to. A draft is published to the picked agents (the publish route; a
// draft whose instructions were partly not understood is refused with 409 naming those parts, and
// Publish anyway accepts them); a published rule's agents change through the update route.
import { Alert, Button, Checkbox, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { ApiError } from '../../../api/client';
import { GateRefusal, isGateRefusal } from '../../../components/gate-refusal';
import { Empty, ErrorState, Loading } from '../../../components/states';
import { WriteButton } from '../../../components/write-button';
import { useAgents } from '../../agents/api';
import { type Rule, usePublishRule, useUpdateRule } from '../api';

export function RuleAgents({ rule }: { rule: Rule }) {
  const agents = useAgents();
  const publish = usePublishRule();
  const update = useUpdateRule();
  const [picked, setPicked] = useState<string[]>(rule.botIds);
  if (agents.isPending) return <Loading label="Loading agents…" />;
  if (agents.error) return <ErrorState error={agents.error} title="The agents could not be loaded" />;
  if (agents.data.length === 0) return <Empty>The workspace has no agents yet: create one on the Agents page.</Empty>;
  const gated = isGateRefusal(publish.error);
  const refused = publish.error instanceof ApiError && publish.error.status === 409 && !gated ? publish.error : null;
  const send = (acceptWarnings: boolean, force = false) => publish.mutate({ id: rule.id, botIds: picked, acceptWarnings, force });
  return (
    <Stack>
      <Checkbox.Group label={rule.isDraft ? 'Publish to these agents' : 'Agents this rule applies to'} value={picked} onChange={setPicked}>
        <Stack gap={4} mt="xs">
          {agents.data.map((a) => (
            <Checkbox key={a.id} value={a.id} label={a.name} />
          ))}
        </Stack>
      </Checkbox.Group>
      {rule.isDraft ? (
        <>
          <WriteButton onClick={() => send(false)} loading={publish.isPending} disabled={picked.length === 0} w="fit-content">
            Publish
          </WriteButton>
          {refused && (
            <Alert color="red" title="Not published" role="alert">
              <Text size="sm">{refused.message}</Text>
              <Button mt="xs" size="xs" onClick={() => send(true)} loading={publish.isPending}>
                Publish anyway
              </Button>
            </Alert>
          )}
          <GateRefusal error={publish.error} pending={publish.isPending} onForce={() => send(publish.variables?.acceptWarnings ?? false, true)} />
          {publish.error && !refused && !gated && <ErrorState error={publish.error} title="The rule was not published" />}
        </>
      ) : (
        <>
          <WriteButton
            onClick={() => update.mutate({ id: rule.id, change: { botIds: picked }, baseVersion: rule.version ?? undefined })}
            loading={update.isPending}
            disabled={[...picked].sort().join() === [...rule.botIds].sort().join()}
            w="fit-content"
          >
            Save agents
          </WriteButton>
          {update.error && <ErrorState error={update.error} title="The agents were not saved" />}
        </>
      )}
    </Stack>
  );
}
