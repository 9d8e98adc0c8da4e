import { z } from 'zod';
import { defineRoute } from '../../http/route.js';
import { idParamsSchema } from '../../http/schemas.js';
import { presentDataStep, presentTool } from './tools.presenter.js';
import { assignToolBodySchema, createToolBodySchema, listToolsQuerySchema, toolSchema, toolWithStepsSchema, updateToolBodySchema } from './tools.schemas.js';
import { testToolBodySchema, toolRunSchema } from './steps.schemas.js';
import { assignTool, createTool, deleteTool, getTool, listTools, runTool, updateTool } from './tools.service.js';

const tags = ['Actions'];

export function toolRoutes() {
  return [
    defineRoute({
      method: 'POST',
      url: '/v2/hc-tools/public',
      auth: 'write',
      tags,
      summary: 'Create an action or attribute',
      description:
        'Creates the record only: `alwaysGet` false (default) makes an Action, called from rule flows; true ' +
        'an Attribute, run for every conversation of its agents. `inputSchema` and `outputSchema` are empty ' +
        'until fields are declared with the update route; the HTTP calls are its external API call steps. ' +
        '`source`: `ui`, `api` (default), `widget` or a provider name; anything else is a 400.',
      body: createToolBodySchema,
      status: 201,
      response: toolSchema,
      handler: async ({ ctx, body }) => presentTool(await createTool(ctx, body)),
    }),
    defineRoute({
      method: 'GET',
      url: '/v2/hc-tools/public',
      auth: 'read',
      tags,
      summary: 'List actions and attributes',
      description: 'In creation order. `alwaysGet` filters the kind; `botId` those assigned to an agent (404 for an unknown agent).',
      querystring: listToolsQuerySchema,
      errors: [404],
      response: z.array(toolSchema),
      handler: async ({ ctx, query }) => (await listTools(ctx, query)).map(presentTool),
    }),
    defineRoute({
      method: 'GET',
      url: '/v2/hc-tools/:id/public',
      auth: 'read',
      tags,
      summary: 'Get an action or attribute with its steps',
      description: 'With its external API call steps in the order they run (`stepNumber`), sensitive values as `********`.',
      params: idParamsSchema,
      errors: [404],
      response: toolWithStepsSchema,
      handler: async ({ ctx, params }) => {
        const { tool, steps } = await getTool(ctx, params.id);
        return { ...presentTool(tool), steps: steps.map(presentDataStep) };
      },
    }),
    defineRoute({
      method: 'PATCH',
      url: '/v2/hc-tools/:id/public',
      auth: 'write',
      tags,
      summary: 'Update an action or attribute',
      description:
        'Changes `name`, `description`, `inputFields` (`{ name, type: string|number|boolean, required, description }`) ' +
        'or `outputFields` (`{ name, type }`); each list replaces the stored one, and `inputSchema`/`outputSchema` ' +
        'are the JSON Schemas that follow from them.',
      params: idParamsSchema,
      body: updateToolBodySchema,
      errors: [404],
      response: toolSchema,
      handler: async ({ ctx, params, body }) => presentTool(await updateTool(ctx, params.id, body)),
    }),
    defineRoute({
      method: 'DELETE',
      url: '/v2/hc-tools/:id/public',
      auth: 'write',
      tags,
      summary: 'Delete an action or attribute',
      description:
        'Deletes it with its steps and assignments; answers the deleted record. 409, naming the rules, while ' +
        'the flow of an intent rule (draft or published) calls it.',
      params: idParamsSchema,
      errors: [404, 409],
      response: toolSchema,
      handler: async ({ ctx, params }) => presentTool(await deleteTool(ctx, params.id)),
    }),
    defineRoute({
      method: 'POST',
      url: '/v2/hc-tools/:id/assign/public',
      auth: 'write',
      tags,
      summary: 'Assign an action or attribute to agents',
      description:
        '`action` ADD or DELETE the given agents (each an agent of the workspace, 400 naming it otherwise). ' +
        'Attributes run for the agents they are assigned to; actions are called from rule flows.',
      params: idParamsSchema,
      body: assignToolBodySchema,
      errors: [404],
      response: toolSchema,
      handler: async ({ ctx, params, body }) => presentTool(await assignTool(ctx, params.id, body)),
    }),
    defineRoute({
      method: 'POST',
      url: '/v2/hc-tools/:id/test/public',
      auth: 'write',
      tags,
      summary: 'Test an action or attribute',
      description:
        'Runs the whole chain against the real APIs with `inputs` (checked against `inputFields` first; write ' +
        'scope: the calls may change data): each step as sent (secrets masked), its status, duration, response ' +
        'and mapped output; the chain\'s output checked against `outputFields`. A failure stops the chain and is ' +
        'named by kind; it is an answer (200 with `success: false`), not an HTTP error.',
      params: idParamsSchema,
      body: testToolBodySchema,
      errors: [404],
      response: toolRunSchema,
      handler: async ({ ctx, params, body }) => runTool(ctx, params.id, body.inputs),
    }),
  ];
}
