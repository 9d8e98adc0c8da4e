// Query and mutation hooks of the Reply rules page: the three slots, saving and deleting one, and
// the test route (read scope: a read-only key may test too).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call, type paths, type Schemas } from '../../api/client';

export type ReplyRule = Schemas['ReplyRule'];
export type ReplyTestResult = Schemas['ReplyRuleTestResult'];
export type ReplyType = ReplyRule['replyType'];
export type TestBody = paths['/v2/reply-behavior/test/public']['post']['requestBody']['content']['application/json'];

/** The slots in precedence order: the first whose conditions hold applies. */
export const REPLY_TYPES: { type: ReplyType; label: string; what: string }[] = [
  { type: 'NO_REPLY', label: 'No reply', what: 'The agent stays silent (a "thanks!" needs no answer).' },
  { type: 'INTERNAL_COMMENT', label: 'Internal comment', what: "The agent's answer becomes a note for the team only; a person answers the customer." },
  { type: 'DIRECT_REPLY', label: 'Direct reply', what: 'The agent answers the customer (also what happens when no slot holds).' },
];

export const replyTypeLabel = (type: string) => REPLY_TYPES.find((t) => t.type === type)?.label ?? type;

const keys = { all: ['reply-rules'] as const };

export function useReplyRules() {
  return useQuery({ queryKey: keys.all, queryFn: () => call(api.GET('/v2/reply-behavior/public', {})) });
}

function useReplyRuleMutation<I, O>(mutationFn: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.all }) });
}

/** Creates or replaces a slot's conditions; `isEnabled` left out keeps it (true for a new slot). */
export const useSaveReplyRule = () =>
  useReplyRuleMutation(({ type, conditions, isEnabled }: { type: ReplyType; conditions: ReplyRule['conditions']; isEnabled?: boolean }) =>
    call(api.PUT('/v2/reply-behavior/{replyType}/public', { params: { path: { replyType: type } }, body: { conditions: conditions as never, isEnabled } })),
  );

export const useDeleteReplyRule = () =>
  useReplyRuleMutation((type: ReplyType) => call(api.DELETE('/v2/reply-behavior/{replyType}/public', { params: { path: { replyType: type } } })));

export const useTestReplyRules = () =>
  useMutation({ mutationFn: (body: TestBody) => call(api.POST('/v2/reply-behavior/test/public', { body })) });
