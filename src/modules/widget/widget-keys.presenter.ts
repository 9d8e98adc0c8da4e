import { iso } from '../../http/schemas.js';
import type { WidgetKeyRow } from './widget-keys.repository.js';

export function presentWidgetKey(row: WidgetKeyRow) {
  return {
    id: row.id,
    companyId: row.workspaceId,
    botId: row.agentId,
    name: row.name,
    key: row.key,
    allowedOrigins: row.allowedOrigins,
    visitorRateLimit: row.visitorRateLimit,
    createdAt: iso(row.createdAt),
  };
}
