import { z } from 'zod';
import { instantSchema, uuidSchema } from '../../http/schemas.js';

export const AUDIT_ACTOR_KINDS = ['key', 'visitor', 'job', 'operator'] as const;

export const auditEntrySchema = z
  .object({
    id: z.uuid(),
    occurredAt: z.iso.datetime(),
    actor: z
      .object({
        kind: z.enum(AUDIT_ACTOR_KINDS).describe('`key`: an API key\'s request; `visitor`: a widget key\'s; `job`: a background job; `operator`: the admin token or the CLI'),
        id: z.string().describe('the key id, the job id, or `operator`'),
        keyId: z.uuid().nullable().describe('the key that acted, or that the job acts on behalf of'),
        keyName: z.string().nullable().describe('that key\'s name when the entry was written'),
      })
      .meta({ id: 'AuditActor' }),
    action: z.string().describe('the route (`POST /v2/hc-articles/{id}/publish/public`), `job <name>`, `mcp <tool>` or `cli <command>`'),
    resource: z
      .object({ type: z.string().nullable(), id: z.string().nullable() })
      .describe('what the action names: a route\'s first path parameter (its collection and id) or what the write made; a job\'s record'),
    changes: z.object({ fields: z.array(z.string()).describe('the fields the request gave (names only: never values, secrets or article bodies)') }),
    requestId: z.string().nullable().describe('the request\'s `X-Request-Id`'),
  })
  .meta({ id: 'AuditEntry' });

const filters = {
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: uuidSchema.optional().describe('an entry id: the page continues after (next) or before (previous) it'),
  direction: z.enum(['next', 'previous']).default('next').describe('`next` goes to older entries, `previous` back to newer ones'),
  keyId: uuidSchema.optional().describe('a key: its own actions and those of jobs acting on its behalf'),
  actorKind: z.enum(AUDIT_ACTOR_KINDS).optional(),
  resourceType: z.string().trim().min(1).max(100).optional().describe('`hc-articles`, `bots`, `hc-rules`, ... (a route\'s collection) or a job record\'s kind (`source`)'),
  resourceId: z.string().trim().min(1).max(100).optional(),
  since: instantSchema.optional().describe('entries at or after this instant (epoch ms or ISO 8601)'),
  until: instantSchema.optional().describe('entries before this instant'),
};

export const listAuditQuerySchema = z.object(filters).strict();
export type ListAuditQuery = z.output<typeof listAuditQuerySchema>;

export const adminListAuditQuerySchema = z
  .object({
    ...filters,
    workspaceId: z
      .union([z.uuid(), z.literal('none')])
      .transform((value) => value.toLowerCase())
      .optional()
      .describe('one workspace\'s entries, or `none` for the operator\'s entries outside any workspace; all when omitted'),
  })
  .strict();
export type AdminListAuditQuery = z.output<typeof adminListAuditQuerySchema>;

export const auditPageSchema = z
  .object({ entries: z.array(auditEntrySchema), hasMore: z.boolean(), nextCursor: z.uuid().nullable(), prevCursor: z.uuid().nullable() })
  .meta({ id: 'AuditLogPage' });

export const adminAuditEntrySchema = auditEntrySchema.extend({ workspaceId: z.uuid().nullable() }).meta({ id: 'AdminAuditEntry' });
export const adminAuditPageSchema = z
  .object({ entries: z.array(adminAuditEntrySchema), hasMore: z.boolean(), nextCursor: z.uuid().nullable(), prevCursor: z.uuid().nullable() })
  .meta({ id: 'AdminAuditLogPage' });
