import { inTransaction } from '../../context.js';
import type { KeyAuthenticator } from '../../http/auth.js';
import { defineRoute } from '../../http/route.js';
import { listWorkers } from '../../jobs/fleet.js';
import { createApiKey, listApiKeys, presentApiKey, presentCreatedApiKey, revokeApiKey } from '../api-keys/index.js';
import { adminAuditPageSchema, adminListAuditQuerySchema, listDeploymentAuditLog, presentAdminAuditEntry, presentAuditPage } from '../audit/index.js';
import { createWorkspace, listWorkspaces, presentWorkspace, workspaceSchema } from '../workspaces/index.js';
import {
  apiKeyListSchema,
  apiKeySchema,
  createApiKeyBodySchema,
  createdApiKeySchema,
  createWorkspaceBodySchema,
  keyIdParamsSchema,
  workspaceIdParamsSchema,
  workerListSchema,
  workspaceListSchema,
} from './admin.schemas.js';

const tags = ['Admin'];
const disabledNote = 'Enabled when `PARLEY_ADMIN_TOKEN` is set; otherwise every admin route answers 404.';

/** Operator routes for workspaces and keys, behind the admin token. */
export function adminRoutes(authenticator: KeyAuthenticator) {
  return [
    defineRoute({
      method: 'POST',
      url: '/v2/admin/workspaces',
      auth: 'admin',
      tags,
      summary: 'Create a workspace',
      description: disabledNote,
      status: 201,
      errors: [404],
      body: createWorkspaceBodySchema,
      response: workspaceSchema,
      // In a transaction with its audit entry (the services run on the CLI's bare database too).
      handler: async ({ ctx, body }) => presentWorkspace(await inTransaction(ctx, (tx) => createWorkspace(tx, body.name))),
    }),
    defineRoute({
      method: 'GET',
      url: '/v2/admin/workspaces',
      auth: 'admin',
      tags,
      summary: 'List workspaces (oldest first)',
      description: disabledNote,
      errors: [404],
      response: workspaceListSchema,
      handler: async ({ ctx }) => (await listWorkspaces(ctx)).map(presentWorkspace),
    }),
    defineRoute({
      method: 'POST',
      url: '/v2/admin/workspaces/:id/api-keys',
      auth: 'admin',
      tags,
      summary: 'Create an API key for a workspace',
      description:
        `${disabledNote} The plaintext \`key\` appears only in this answer; Parley stores its SHA-256. ` +
        '`expiresAt` must be in the future; an expired key gets 401.',
      status: 201,
      errors: [404],
      params: workspaceIdParamsSchema,
      body: createApiKeyBodySchema,
      response: createdApiKeySchema,
      handler: async ({ ctx, params, body }) => {
        const { row, key } = await inTransaction(ctx, (tx) =>
          createApiKey(tx, params.id, {
            name: body.name,
            scopes: body.scopes,
            expiresAt: body.expiresAt ? new Date(body.expiresAt) : undefined,
          }),
        );
        return presentCreatedApiKey(row, key);
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/v2/admin/workspaces/:id/api-keys',
      auth: 'admin',
      tags,
      summary: "List a workspace's API keys (without secrets)",
      description: disabledNote,
      errors: [404],
      params: workspaceIdParamsSchema,
      response: apiKeyListSchema,
      handler: async ({ ctx, params }) => (await listApiKeys(ctx, params.id)).map(presentApiKey),
    }),
    defineRoute({
      method: 'DELETE',
      url: '/v2/admin/api-keys/:id',
      auth: 'admin',
      tags,
      summary: 'Revoke an API key',
      description:
        `${disabledNote} From then on the key gets 401 \`invalid or revoked API key\`: at once in this ` +
        'process, within a second (PARLEY_AUTH_CACHE_MS) in every other. Revoking twice is harmless.',
      errors: [404],
      params: keyIdParamsSchema,
      response: apiKeySchema,
      handler: async ({ ctx, params }) => {
        const row = await inTransaction(ctx, (tx) => revokeApiKey(tx, params.id));
        authenticator.forget(row.id);
        return presentApiKey(row);
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/v2/admin/audit-log',
      auth: 'admin',
      tags,
      summary: 'List the audit log of the deployment',
      description:
        `${disabledNote} The entries of every workspace, or of one (\`workspaceId\`), or (\`workspaceId=none\`) the ` +
        "operator's actions outside any workspace, newest first, with the filters and pages of `GET /v2/audit-log/public`; " +
        '`parley audit export` walks it.',
      errors: [404],
      querystring: adminListAuditQuerySchema,
      response: adminAuditPageSchema,
      handler: async ({ ctx, query }) =>
        presentAuditPage(await listDeploymentAuditLog(ctx, query.workspaceId === 'none' ? null : query.workspaceId, query), query, presentAdminAuditEntry),
    }),
    defineRoute({
      method: 'GET',
      url: '/v2/admin/workers',
      auth: 'admin',
      tags,
      summary: 'List the job workers of the deployment and what each runs',
      description:
        `${disabledNote} One entry per process that works jobs (\`parley worker\`, \`parley serve\` without ` +
        '`--no-worker`), oldest first: its queues with concurrency and lease, the jobs it runs now, and when it ' +
        'was last seen. A worker refreshes its entry every `PARLEY_WORKER_HEARTBEAT_SECONDS` and removes it when ' +
        'it stops; one silent for `PARLEY_WORKER_TIMEOUT_SECONDS` is `silent` until a live worker takes over ' +
        'its jobs and removes it.',
      errors: [404],
      response: workerListSchema,
      handler: async ({ ctx }) =>
        (await listWorkers(ctx.db, ctx.config.jobs.workerTimeoutSeconds)).map((w) => ({
          ...w,
          startedAt: w.startedAt.toISOString(),
          lastSeenAt: w.lastSeenAt.toISOString(),
        })),
    }),
  ];
}
