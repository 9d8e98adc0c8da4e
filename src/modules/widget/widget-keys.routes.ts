import { z } from 'zod';
import type { KeyAuthenticator } from '../../http/auth.js';
import { defineRoute } from '../../http/route.js';
import { idParamsSchema } from '../../http/schemas.js';
import { presentWidgetKey } from './widget-keys.presenter.js';
import { createWidgetKeyBodySchema, widgetKeySchema } from './widget-keys.schemas.js';
import { createWidgetKey, deleteWidgetKey, listWidgetKeys } from './widget-keys.service.js';

const tags = ['Widget'];

/** The workspace's management of its agents' widget keys (docs/widget.md). */
export function widgetKeyRoutes(authenticator: Pick<KeyAuthenticator, 'forget'>) {
  return [
    defineRoute({
      method: 'POST',
      url: '/v2/bots/:id/widget-keys/public',
      auth: 'write',
      tags,
      summary: 'Create a widget key for an agent',
      description:
        'A publishable key (`pk_...`) for the chat widget of the agent: not a secret (it is listed in full), it works only ' +
        'from a browser page of one of `allowedOrigins`, and only for what a visitor does (the `/v2/widget/...` routes) with ' +
        'this agent. `visitorRateLimit` caps the requests of one visitor per rate-limit window. 404 for an agent the ' +
        'workspace does not have.',
      params: idParamsSchema,
      body: createWidgetKeyBodySchema,
      status: 201,
      errors: [404],
      response: widgetKeySchema,
      handler: async ({ ctx, params, body }) => presentWidgetKey(await createWidgetKey(ctx, params.id, body)),
    }),
    defineRoute({
      method: 'GET',
      url: '/v2/bots/:id/widget-keys/public',
      auth: 'read',
      tags,
      summary: "List an agent's widget keys",
      description: 'The widget keys of the agent, oldest first, each in full. 404 for an agent the workspace does not have.',
      params: idParamsSchema,
      errors: [404],
      response: z.array(widgetKeySchema),
      handler: async ({ ctx, params }) => (await listWidgetKeys(ctx, params.id)).map(presentWidgetKey),
    }),
    defineRoute({
      method: 'DELETE',
      url: '/v2/widget-keys/:id/public',
      auth: 'write',
      tags,
      summary: 'Delete a widget key',
      description:
        'The key stops working (at once on this server, within `PARLEY_AUTH_CACHE_MS` on others); answers the deleted key. ' +
        "Visitors' conversations stay, and their visitor tokens keep working with the agent's other keys. 404 for an unknown " +
        "key or another workspace's.",
      params: idParamsSchema,
      errors: [404],
      response: widgetKeySchema,
      handler: async ({ ctx, params }) => {
        const deleted = await deleteWidgetKey(ctx, params.id);
        authenticator.forget(deleted.id);
        return presentWidgetKey(deleted);
      },
    }),
  ];
}
