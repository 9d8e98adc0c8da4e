// Query and mutation hooks of the Guardrails page: the list in run order, one guardrail, create,
// update (also enable/disable and the agents), delete, and the test route (read scope).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call, type paths, type Schemas } from '../../api/client';

export type Guardrail = Schemas['Guardrail'];
export type GuardrailTestResult = Schemas['GuardrailTestResult'];
export type GuardrailBody = paths['/v2/guardrails/public']['post']['requestBody']['content']['application/json'];
export type TestBody = paths['/v2/guardrails/test/public']['post']['requestBody']['content']['application/json'];
export type Kind = Guardrail['kind'];
export type Stage = Guardrail['stage'];
export type Action = Guardrail['action'];

/** The five kinds: what each checks, its stages and actions (the API's KIND_RULES; it refuses others with a 400 on the field). */
export const KINDS: { kind: Kind; label: string; what: string; stages: Stage[]; actions: Action[] }[] = [
  { kind: 'blocked_topics', label: 'Blocked topics', what: 'A topic the agent must not discuss (every word of one of its comma-separated alternatives, by stem).', stages: ['input', 'output'], actions: ['block', 'escalate', 'flag'] },
  { kind: 'blocked_phrases', label: 'Blocked phrases', what: 'A phrase that appears as whole words.', stages: ['input', 'output'], actions: ['block', 'redact', 'escalate', 'flag'] },
  { kind: 'pii_redaction', label: 'Personal data', what: 'Email addresses, phone, card and IBAN numbers, US social security numbers.', stages: ['input', 'output'], actions: ['redact', 'block', 'escalate', 'flag'] },
  { kind: 'answer_length', label: 'Answer length', what: 'An answer longer than a number of characters.', stages: ['output'], actions: ['block', 'escalate', 'flag'] },
  { kind: 'required_citation', label: 'Required citation', what: 'An answer that cites no article.', stages: ['output'], actions: ['block', 'escalate', 'flag'] },
];

export const kindLabel = (kind: string) => KINDS.find((k) => k.kind === kind)?.label ?? kind;
export const STAGE_LABELS: Record<Stage, string> = { input: "Customer's message", output: "Agent's answer" };
export const ACTION_LABELS: Record<Action, string> = {
  block: 'Block: no answer, hand over',
  redact: 'Redact: replace each match with [redacted]',
  escalate: 'Escalate: answer, then hand over',
  flag: 'Flag: record only',
};
export const PII_LABELS: Record<string, string> = { email: 'Email addresses', phone: 'Phone numbers', card: 'Card numbers', iban: 'IBANs', ssn: 'US social security numbers' };

const keys = { all: ['guardrails'] as const, one: (id: string) => ['guardrails', 'one', id] as const };

export function useGuardrails() {
  return useQuery({ queryKey: keys.all, queryFn: () => call(api.GET('/v2/guardrails/public', { params: { query: {} } })) });
}

export function useGuardrail(id: string) {
  return useQuery({ queryKey: keys.one(id), queryFn: () => call(api.GET('/v2/guardrails/{id}/public', { params: { path: { id } } })) });
}

function useGuardrailMutation<I, O>(mutationFn: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.all }) });
}

export const useCreateGuardrail = () => useGuardrailMutation((body: GuardrailBody) => call(api.POST('/v2/guardrails/public', { body })));

export const useUpdateGuardrail = () =>
  useGuardrailMutation(({ id, body }: { id: string; body: Partial<GuardrailBody> }) => call(api.PUT('/v2/guardrails/{id}/public', { params: { path: { id } }, body })));

export const useDeleteGuardrail = () => useGuardrailMutation((id: string) => call(api.DELETE('/v2/guardrails/{id}/public', { params: { path: { id } } })));

export const useTestGuardrails = () => useMutation({ mutationFn: (body: TestBody) => call(api.POST('/v2/guardrails/test/public', { body })) });
