// One reply slot: its condition groups as readable rows, enable/disable, edit, delete.
import { Alert, Badge, Button, Card, Group, List, Stack, Switch, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useSession } from '../../../app/session';
import { ConditionEditor, placedByEditor } from '../../../components/condition-editor';
import { fromRows, type GroupRow, newGroup, toRows } from '../../../components/condition-form';
import { type ConditionGroup, groupWords } from '../../../components/condition-words';
import { ConfirmDelete } from '../../../components/confirm-delete';
import { fieldErrors, unplaced } from '../../../components/field-errors';
import { ErrorState } from '../../../components/states';
import { WriteButton } from '../../../components/write-button';
import { type ReplyRule, type ReplyType, useDeleteReplyRule, useSaveReplyRule } from '../api';

/** The groups as rows: the first "If …", each next one "OR …". */
export function ConditionRows({ conditions }: { conditions: unknown[] }) {
  const groups = conditions as unknown as ConditionGroup[];
  if (groups.length === 0) return <Text size="sm">No condition group: the slot never applies.</Text>;
  return (
    <List listStyleType="none" spacing={4} aria-label="Conditions">
      {groups.map((group, i) => (
        <List.Item key={i}>
          <Text size="sm">
            <Text span fw={700}>
              {i === 0 ? 'If' : 'OR'}
            </Text>{' '}
            {groupWords(group)}
          </Text>
        </List.Item>
      ))}
    </List>
  );
}

function Editor({ type, rule, onDone }: { type: ReplyType; rule?: ReplyRule; onDone: () => void }) {
  const [rows, setRows] = useState<GroupRow[]>(rule ? toRows(rule.conditions) : [newGroup()]);
  const save = useSaveReplyRule();
  const errors = fieldErrors(save.error);
  const above = unplaced(errors, (path) => placedByEditor('conditions', path));
  return (
    <Stack>
      <ConditionEditor groups={rows} onChange={setRows} errors={errors} prefix="conditions" empty="No condition group: the slot never applies. Add a group." />
      {above.length > 0 && (
        <Alert color="red" title="The conditions were not saved" role="alert">
          {above.join('; ')}
        </Alert>
      )}
      {save.error && above.length === 0 && <Text size="sm" c="red.9" role="alert">The conditions were not saved: see the fields marked above.</Text>}
      <Group>
        <WriteButton loading={save.isPending} onClick={() => save.mutate({ type, conditions: fromRows(rows) as never }, { onSuccess: onDone })}>
          Save conditions
        </WriteButton>
        <Button variant="default" onClick={onDone}>
          Cancel
        </Button>
      </Group>
    </Stack>
  );
}

export function SlotCard({ type, label, what, rule }: { type: ReplyType; label: string; what: string; rule?: ReplyRule }) {
  const { canWrite } = useSession();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const toggle = useSaveReplyRule();
  const remove = useDeleteReplyRule();
  return (
    <Card withBorder component="section" aria-label={label}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Group gap="sm">
            <Title order={2} size="h4">
              {label}
            </Title>
            {!rule ? <Badge color="gray">Not set</Badge> : rule.isEnabled ? <Badge color="blue">Enabled</Badge> : <Badge color="gray">Disabled</Badge>}
          </Group>
          {rule && (
            <Switch
              label="Enabled"
              checked={rule.isEnabled}
              disabled={!canWrite || toggle.isPending}
              title={canWrite ? undefined : 'This key is read-only'}
              onChange={(e) => toggle.mutate({ type, conditions: rule.conditions, isEnabled: e.currentTarget.checked })}
            />
          )}
        </Group>
        <Text size="sm" c="dimmed">
          {what}
        </Text>
        {toggle.error && <ErrorState error={toggle.error} title="The slot was not changed" />}
        {editing ? (
          <Editor type={type} rule={rule} onDone={() => setEditing(false)} />
        ) : (
          <>
            {rule ? <ConditionRows conditions={rule.conditions} /> : <Text size="sm">Not set: this slot never applies.</Text>}
            {rule && !rule.isEnabled && <Text size="sm">Disabled: it is not evaluated.</Text>}
            <Group>
              <WriteButton variant="light" onClick={() => setEditing(true)}>
                {rule ? 'Edit conditions' : 'Set conditions'}
              </WriteButton>
              {rule && (
                <WriteButton variant="subtle" color="red" onClick={() => setDeleting(true)}>
                  Delete
                </WriteButton>
              )}
            </Group>
          </>
        )}
      </Stack>
      <ConfirmDelete
        opened={deleting}
        onClose={() => setDeleting(false)}
        action={`Delete the ${label} slot`}
        pending={remove.isPending}
        error={remove.error}
        onConfirm={() => remove.mutate(type, { onSuccess: () => setDeleting(false) })}
      >
        Delete the conditions of {label}? The slot then never applies, until it is set again.
      </ConfirmDelete>
    </Card>
  );
}
