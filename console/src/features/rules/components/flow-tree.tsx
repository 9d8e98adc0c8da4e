// The flow drawn as a tree of nested lists: each chain of `next` nodes is one list, a branch
// (then / otherwise, on success / on failure) a list inside its node, the connectors CSS borders.
// Screen readers hear lists inside lists with each branch named; every node says what it does in
// words, carries the API's validation messages that name it, and opens its form with Edit.
import { Alert, Badge, Box, Button, Group, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { type FieldErrors, unplaced } from '../../../components/field-errors';
import { BRANCH_LABELS, CHILD_KEYS, type FlowNames, type FlowNode, type NodePath, nodeText, pathKey } from '../flow';

const TYPE_LABELS: Record<string, string> = {
  message: 'Message',
  collect: 'Collect',
  condition: 'Condition',
  tool: 'Tool',
  tag: 'Tag',
  escalate: 'Escalate',
  end: 'End',
};
const TYPE_COLORS: Record<string, string> = { condition: 'grape.9', escalate: 'red.9', end: 'dark', collect: 'blue.9', tool: 'teal.9' };

const listStyle = { listStyle: 'none', margin: 0, paddingLeft: 20, borderLeft: '2px solid var(--mantine-color-gray-4)' };

export interface TreeProps {
  names: FlowNames;
  errors: Map<string, FieldErrors>;
  selected: string | null;
  onEdit(path: NodePath): void;
  /** The open form of the selected node, shown inside it. */
  form: ReactNode;
}

function Node({ node, path, props }: { node: FlowNode; path: NodePath; props: TreeProps }) {
  const key = pathKey(path);
  const own = props.errors.get(key);
  // Every message naming the node: "field: message", the node's own without a field.
  const errors = own ? unplaced(own, () => false) : [];
  const name = node.id ?? key;
  return (
    <Box component="li" my={6} aria-label={`${TYPE_LABELS[node.type] ?? node.type} ${name}`}>
      <Box
        p="xs"
        style={{
          border: `1px solid var(--mantine-color-${errors.length ? 'red-7' : 'gray-4'})`,
          borderRadius: 6,
          background: props.selected === key ? 'var(--mantine-color-blue-0)' : 'var(--mantine-color-body)',
        }}
      >
        <Group justify="space-between" wrap="nowrap" align="start">
          <div>
            <Group gap="xs">
              <Badge color={TYPE_COLORS[node.type] ?? 'gray.8'}>{TYPE_LABELS[node.type] ?? node.type}</Badge>
              <Text size="xs" c="dimmed" ff="monospace">
                {name}
              </Text>
            </Group>
            <Text size="sm" mt={4}>
              {nodeText(node, props.names)}
            </Text>
          </div>
          <Button size="xs" variant="default" aria-label={`Edit ${name}`} onClick={() => props.onEdit(path)}>
            Edit
          </Button>
        </Group>
        {errors.length > 0 && (
          <Alert color="red" mt="xs" p="xs" title={`The API refused ${name}`}>
            {errors.map((message, i) => (
              <Text key={i} size="sm">
                {message}
              </Text>
            ))}
          </Alert>
        )}
        {props.selected === key && props.form}
      </Box>
      {CHILD_KEYS.filter((k) => k !== 'next' && node[k]).map((k) => (
        <Box key={k} ml="md" mt={4}>
          <Text size="sm" fw={600} id={`branch-${key}-${k}`}>
            {BRANCH_LABELS[k]}
          </Text>
          <Chain node={node[k]} path={[...path, k]} props={props} label={`${BRANCH_LABELS[k]} of ${name}`} />
        </Box>
      ))}
    </Box>
  );
}

/** A node and the nodes its `next` leads to, as one list. */
function Chain({ node, path, props, label }: { node: FlowNode | undefined; path: NodePath; props: TreeProps; label: string }) {
  const items: ReactNode[] = [];
  let current = node;
  let at = path;
  while (current) {
    items.push(<Node key={pathKey(at)} node={current} path={at} props={props} />);
    current = current.next;
    at = [...at, 'next'];
  }
  return (
    <Box component="ul" style={listStyle} aria-label={label}>
      {items}
    </Box>
  );
}

export function FlowTree({ flow, ruleName, ...props }: TreeProps & { flow: FlowNode; ruleName: string }) {
  return <Chain node={flow} path={[]} props={props} label={`Flow of ${ruleName}`} />;
}
