// A rule's flow: the parts of its instructions not understood (never hidden), the tree, and the
// form of the node being edited. Every save sends the whole flow through the rule update route
// (a published rule gets a new version); a 400 is placed on the nodes its message names.
import { Alert, Button, Group, List, Select, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../../../api/client';
import { ErrorState } from '../../../components/states';
import { WriteButton } from '../../../components/write-button';
import { type Rule, ruleKeys, useDraftWarnings, useFlowNames, useUpdateRule } from '../api';
import { fromRows, newGroup } from '../../../components/condition-form';
import { ConfirmDelete } from '../../../components/confirm-delete';
import { NO_FIELD_ERRORS } from '../../../components/field-errors';
import { type FlowErrors, type FlowNode, flowErrors, NO_FLOW_ERRORS, NODE_TYPES, type NodePath, nodeAt, ownFields, pathKey, replaceAt, withFields } from '../flow';
import { FlowTree } from './flow-tree';
import { NodeForm } from './node-form';

export function DraftWarnings({ ruleId }: { ruleId: string }) {
  const warnings = useDraftWarnings(ruleId).data;
  if (!warnings?.length) return null;
  return (
    <Alert color="red" title={`Not understood: ${warnings.length} part${warnings.length > 1 ? 's' : ''} of the instructions`} role="region" aria-label="Not understood">
      <List size="sm" spacing={4}>
        {warnings.map((w) => (
          <List.Item key={w.fragment}>
            <Text span fw={600} size="sm">
              “{w.fragment}”
            </Text>{' '}
            {w.message}
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}

/**
 * The flow schema (src/evaluators/flow.ts) gives escalate and end no `next`: nothing goes after
 * them, and they can be placed only where nothing would follow (the first step of an empty flow,
 * after a node with no `next`).
 */
const isLast = (type: string | null | undefined) => type === 'escalate' || type === 'end';
const typesBefore = (following: boolean) => NODE_TYPES.filter((t) => !following || !isLast(t));

/** A new node of the chosen type with nothing filled in yet. */
const blankNode = (type: FlowNode['type']): FlowNode => (type === 'condition' ? { type, conditions: fromRows([newGroup()]) } : { type });

export function RuleFlow({ rule }: { rule: Rule }) {
  const flow = rule.flowConfig as FlowNode | null;
  const update = useUpdateRule();
  const names = useFlowNames(flow);
  const queryClient = useQueryClient();
  const [selected, setSelected] = useState<NodePath | null>(null);
  // A step being added: placed after the node at `after` (null: the flow's first step).
  const [adding, setAdding] = useState<{ after: NodePath | null; node: FlowNode } | null>(null);
  const [newType, setNewType] = useState<string | null>('message');
  const [afterType, setAfterType] = useState<string | null>('message');
  const [removing, setRemoving] = useState(false);
  const [errors, setErrors] = useState<FlowErrors>(NO_FLOW_ERRORS);

  const send = (next: FlowNode | undefined, done: () => void) => {
    setErrors(NO_FLOW_ERRORS);
    update.mutate(
      { id: rule.id, change: { flowConfig: next ?? null }, baseVersion: rule.version ?? undefined },
      {
        onSuccess: done,
        onError: (error) => {
          if (error instanceof ApiError && error.status === 400) setErrors(flowErrors(error));
        },
      },
    );
  };
  // An escalate or end picked for an empty flow is not offered once the flow has steps.
  const startType = flow && isLast(newType) ? 'message' : (newType ?? 'message');
  const selectedNode = selected && flow ? nodeAt(flow, selected) : undefined;
  const typeAfter = selectedNode?.next && isLast(afterType) ? 'message' : (afterType ?? 'message');
  const addingPath: NodePath = adding?.after ? [...adding.after, 'next'] : [];
  const insert = (fields: FlowNode) => {
    if (!adding) return;
    if (!adding.after || !flow) return send({ ...fields, ...(flow ? { next: flow } : {}) }, () => setAdding(null));
    const before = nodeAt(flow, adding.after);
    if (!before) return;
    send(replaceAt(flow, adding.after, { ...before, next: { ...fields, ...(before.next ? { next: before.next } : {}) } }), () => setAdding(null));
  };
  // The whole message too: a path naming a node that is not drawn (a step being added) is never lost.
  const summary = errors.byNode.size > 0 && update.error ? `${update.error.message} (shown on the node${errors.byNode.size > 1 ? 's' : ''} it names)` : null;

  return (
    <Stack>
      <DraftWarnings ruleId={rule.id} />
      {!flow && (
        <Alert color="gray" title="No flow">
          {rule.isDraft
            ? 'This draft has no flow: the instructions were not turned into steps. Refine it with clearer instructions, or add the first step below.'
            : 'This rule has no flow. Add its first step below.'}
        </Alert>
      )}
      {summary && (
        <Alert color="red" role="alert" title="The API refused the flow">
          {summary}
        </Alert>
      )}
      {update.error && !(update.error instanceof ApiError && update.error.status === 400) && <ErrorState error={update.error} title="The flow was not saved" />}
      {update.error instanceof ApiError && update.error.status === 409 && (
        // Someone saved a newer version meanwhile: show it (the edit is then redone on it).
        <Button variant="default" w="fit-content" onClick={() => queryClient.invalidateQueries({ queryKey: ruleKeys.one(rule.id) })}>
          Show the current version
        </Button>
      )}
      {errors.other.length > 0 && <ErrorState error={new Error(errors.other.join('; '))} title="The flow was not saved" />}
      {flow && (
        <FlowTree
          flow={flow}
          ruleName={rule.name}
          names={names}
          errors={errors.byNode}
          selected={selected ? pathKey(selected) : null}
          onEdit={(path) => {
            setSelected(path);
            setAdding(null);
          }}
          form={
            selected &&
            selectedNode && (
              <>
                <NodeForm
                  key={pathKey(selected)}
                  node={ownFields(selectedNode)}
                  errors={errors.byNode.get(pathKey(selected)) ?? NO_FIELD_ERRORS}
                  saving={update.isPending}
                  onCancel={() => setSelected(null)}
                  onSave={(fields) => send(replaceAt(flow, selected, withFields(selectedNode, fields)), () => setSelected(null))}
                />
                <Group mt="xs" align="end">
                  {!isLast(selectedNode.type) && (
                    <>
                      <Select size="xs" label="Type of the step after it" data={typesBefore(!!selectedNode.next)} value={typeAfter} allowDeselect={false} onChange={setAfterType} w={180} />
                      <WriteButton size="xs" variant="default" onClick={() => setAdding({ after: selected, node: blankNode(typeAfter as FlowNode['type']) })}>
                        Add a step after this one
                      </WriteButton>
                    </>
                  )}
                  <WriteButton size="xs" variant="default" onClick={() => setRemoving(true)}>
                    Remove this node
                  </WriteButton>
                </Group>
                <ConfirmDelete
                  opened={removing}
                  onClose={() => setRemoving(false)}
                  action="Remove node"
                  pending={update.isPending}
                  error={update.error}
                  // The node's `next` takes its place; its branches go with it.
                  onConfirm={() =>
                    send(replaceAt(flow, selected, selectedNode.next), () => {
                      setRemoving(false);
                      setSelected(null);
                    })
                  }
                >
                  Remove {selectedNode.id ?? 'this node'} and its branches? The step after it takes its place.
                </ConfirmDelete>
              </>
            )
          }
        />
      )}
      <Group align="end">
        <Select label="Type of a new step" data={typesBefore(!!flow)} value={startType} allowDeselect={false} onChange={setNewType} w={180} />
        <WriteButton variant="default" onClick={() => setAdding({ after: null, node: blankNode(startType as FlowNode['type']) })}>
          {flow ? 'Add a step at the start' : 'Add the first step'}
        </WriteButton>
      </Group>
      {adding && (
        <section aria-label="New step">
          <Text fw={600} size="sm">
            New {adding.node.type} step {adding.after ? `after ${nodeAt(flow ?? { type: 'end' }, adding.after)?.id ?? ''}` : 'at the start'}
          </Text>
          <NodeForm key={`${pathKey(addingPath)}-${adding.node.type}`} node={adding.node} errors={errors.byNode.get(pathKey(addingPath)) ?? NO_FIELD_ERRORS} saving={update.isPending} onCancel={() => setAdding(null)} onSave={insert} />
        </section>
      )}
    </Stack>
  );
}
