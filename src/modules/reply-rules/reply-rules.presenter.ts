import { iso } from '../../http/schemas.js';
import type { ReplyType } from '../../evaluators/reply.js';
import type { ReplyRuleRow } from './reply-rules.repository.js';

export function presentReplyRule(row: ReplyRuleRow) {
  return {
    id: row.id,
    companyId: row.workspaceId,
    replyType: row.replyType as ReplyType,
    conditions: row.conditions as Record<string, unknown>[],
    isEnabled: row.isEnabled,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}
