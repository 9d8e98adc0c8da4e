import { defineRoute } from '../../http/route.js';
import { connectionBodySchema, connectionPatchSchema, connectionSchema, connectionTestSchema, providerParamsSchema } from './providers.schemas.js';
import { deleteConnection, getConnection, patchConnection, putConnection, testConnection } from './providers.service.js';

const tags = ['Providers'];

export function providerRoutes() {
  return [
    defineRoute({
      method: 'PUT',
      url: '/v2/providers/:provider/connection/public',
      auth: 'write',
      tags,
      summary: 'Connect a provider',
      description:
        'Stores the credentials of `notion` (`token`), `zendesk` (`subdomain` or `baseUrl`, `email`, `apiToken`), ' +
        '`confluence` (`baseUrl`, `email`, `apiToken`) or `googledrive` (`accessToken` or `serviceAccountJson`) after ' +
        'checking them against the provider (400 when it refuses them or its base URL cannot serve them, 502 when the ' +
        'network fails to reach it). Every provider ' +
        "takes an optional `baseUrl`, the provider API's base (default its public API), for proxies and self-hosted " +
        'wikis; it goes through the private-address policy of web fetches. Credentials are encrypted at rest and ' +
        'answered as `********`; sending `********` for a secret keeps the stored one. A second PUT replaces the connection ' +
        '(and keeps its `syncInterval`).',
      params: providerParamsSchema,
      body: connectionBodySchema,
      errors: [502],
      response: connectionSchema,
      handler: async ({ ctx, params, body }) => putConnection(ctx, params.provider, body),
    }),
    defineRoute({
      method: 'GET',
      url: '/v2/providers/:provider/connection/public',
      auth: 'read',
      tags,
      summary: 'Get a provider connection',
      description:
        'The connection with the account the provider reported, the API base and the stored fields (secrets as ' +
        '`********`); `{ provider, connected: false }` when the provider is not connected.',
      params: providerParamsSchema,
      response: connectionSchema,
      handler: async ({ ctx, params }) => getConnection(ctx, params.provider),
    }),
    defineRoute({
      method: 'PATCH',
      url: '/v2/providers/:provider/connection/public',
      auth: 'write',
      tags,
      summary: 'Set the re-sync interval of a provider connection',
      description:
        "`syncInterval` is how often the provider's sources re-sync when they set no interval of their own: `off`, " +
        '`hourly`, `daily`, `weekly`, a five-field cron expression in UTC, or null to follow the workspace\'s default ' +
        '(docs/sources.md, "Scheduled re-sync"). The credentials are not checked again. 404 when the provider is not connected.',
      params: providerParamsSchema,
      body: connectionPatchSchema,
      errors: [404],
      response: connectionSchema,
      handler: async ({ ctx, params, body }) => patchConnection(ctx, params.provider, body),
    }),
    defineRoute({
      method: 'DELETE',
      url: '/v2/providers/:provider/connection/public',
      auth: 'write',
      tags,
      summary: 'Disconnect a provider',
      description:
        'Deletes the stored credentials. Sources already imported stay; ingesting or refreshing them fails, naming ' +
        'the provider, until it is connected again. 404 when the provider is not connected.',
      params: providerParamsSchema,
      errors: [404],
      response: connectionSchema,
      handler: async ({ ctx, params }) => deleteConnection(ctx, params.provider),
    }),
    defineRoute({
      method: 'POST',
      url: '/v2/providers/:provider/connection/test/public',
      auth: 'write',
      tags,
      summary: 'Test a provider connection',
      description:
        'Checks the stored credentials against the provider now: `ok` with the account it reports, or `ok: false` ' +
        'with why it refused (an expired token, lost permission, the provider unreachable). 400 when not connected.',
      params: providerParamsSchema,
      response: connectionTestSchema,
      handler: async ({ ctx, params }) => testConnection(ctx, params.provider),
    }),
  ];
}
