import { defineRoute } from '../../http/route.js';
import { presentAuditEntry, presentAuditPage } from './audit.presenter.js';
import { auditPageSchema, listAuditQuerySchema } from './audit.schemas.js';
import { listAuditLog } from './audit.service.js';

const tags = ['Audit log'];

/** The workspace's audit log (docs/audit.md). */
export function auditRoutes() {
  return [
    defineRoute({
      method: 'GET',
      url: '/v2/audit-log/public',
      auth: 'read',
      tags,
      summary: 'List the audit log',
      description:
        'Every write of the workspace through the API, its jobs and the MCP server, newest first: who (the key, a job on behalf ' +
        'of a key, or the operator), what (the route or job, the resource) and which fields it was given (names only), ' +
        'written in the same transaction as the write. Filters: `keyId`, `actorKind`, `resourceType`, `resourceId`, the window ' +
        '`since`/`until`. Pages: pass `nextCursor` as `cursor` for older entries, `prevCursor` with `direction=previous` for ' +
        'newer ones. Entries are kept PARLEY_AUDIT_RETENTION_DAYS days (365 by default).',
      querystring: listAuditQuerySchema,
      response: auditPageSchema,
      handler: async ({ ctx, query }) => presentAuditPage(await listAuditLog(ctx, query), query, presentAuditEntry),
    }),
  ];
}
