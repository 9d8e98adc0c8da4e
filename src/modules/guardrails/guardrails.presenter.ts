import { iso } from '../../http/schemas.js';
import type { GuardrailAction, GuardrailKind, GuardrailStage } from '../../evaluators/guardrails.js';
import type { GuardrailWithAgents } from './guardrails.repository.js';

export function presentGuardrail(g: GuardrailWithAgents) {
  return {
    id: g.id,
    companyId: g.workspaceId,
    name: g.name,
    kind: g.kind as GuardrailKind,
    stage: g.stage as GuardrailStage,
    action: g.action as GuardrailAction,
    config: g.config,
    isEnabled: g.isEnabled,
    botIds: g.botIds,
    createdAt: iso(g.createdAt),
    updatedAt: iso(g.updatedAt),
  };
}
