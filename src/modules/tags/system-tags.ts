/**
 * Parley's read-only system tag groups, seeded by migrations/0006_agent_behaviour.sql with these
 * fixed ids. Every workspace sees them (`companyId: null`); changing or deleting them is a 400.
 */
import { FLOW_ESCALATION_REASONS } from '../../evaluators/flow.js';

export const CONVERSATION_STATUS_GROUP_ID = 'a0000000-0000-4000-8000-000000000001';
export const ESCALATION_REASON_GROUP_ID = 'a0000000-0000-4000-8000-000000000002';

/** A conversation's status (wave2-decisions §1), as the deployed service names it. */
export const CONVERSATION_STATUSES = [
  'Waiting for Customer',
  'Resolved by AI',
  'Escalated to Human Agent',
  'Unresolved',
  'No Reply',
] as const;
export type ConversationStatus = (typeof CONVERSATION_STATUSES)[number];

/** Why the agent handed over (wave2-decisions §1): one list, the flow language's (src/evaluators/flow.ts). */
export const ESCALATION_REASONS = FLOW_ESCALATION_REASONS;
export type EscalationReason = (typeof ESCALATION_REASONS)[number];

/** The system tags' fixed ids, by name. */
export const SYSTEM_TAG_IDS: Readonly<Record<ConversationStatus | EscalationReason, string>> = {
  'Waiting for Customer': 'a0000000-0000-4000-8000-000000000101',
  'Resolved by AI': 'a0000000-0000-4000-8000-000000000102',
  'Escalated to Human Agent': 'a0000000-0000-4000-8000-000000000103',
  Unresolved: 'a0000000-0000-4000-8000-000000000104',
  'No Reply': 'a0000000-0000-4000-8000-000000000105',
  missing_knowledge: 'a0000000-0000-4000-8000-000000000201',
  customer_request: 'a0000000-0000-4000-8000-000000000202',
  rule_escalation: 'a0000000-0000-4000-8000-000000000203',
  guardrail_block: 'a0000000-0000-4000-8000-000000000204',
  tool_failure: 'a0000000-0000-4000-8000-000000000205',
  low_confidence: 'a0000000-0000-4000-8000-000000000206',
  negative_sentiment: 'a0000000-0000-4000-8000-000000000207',
  other: 'a0000000-0000-4000-8000-000000000208',
};

export const SYSTEM_TAG_GROUP_IDS: readonly string[] = [CONVERSATION_STATUS_GROUP_ID, ESCALATION_REASON_GROUP_ID];
