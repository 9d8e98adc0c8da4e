import { defineRoute } from '../../http/route.js';
import { idParamsSchema } from '../../http/schemas.js';
import { presentAgent } from './agents.presenter.js';
import {
  agentListSchema,
  agentSchema,
  createAgentBodySchema,
  deletedAgentSchema,
  updateAgentBodySchema,
} from './agents.schemas.js';
import { createAgent, deleteAgent, listAgents, renameAgent } from './agents.service.js';

const tags = ['Agents'];

export function agentRoutes() {
  return [
    defineRoute({
      method: 'GET',
      url: '/v2/bots/public',
      auth: 'read',
      tags,
      summary: 'List agents',
      description:
        'All non-deleted agents of the workspace, most recently updated first (saving prompts counts ' +
        'as an update). Each prompt field is the enabled sections of that prompt serialized to text ' +
        '(`## title` then the content, sections separated by a blank line); an empty string when no ' +
        'section is enabled. No pagination, filtering or limit; an empty array when there are none.',
      response: agentListSchema,
      handler: async ({ ctx }) => (await listAgents(ctx)).map(presentAgent),
    }),
    defineRoute({
      method: 'POST',
      url: '/v2/bots/public',
      auth: 'write',
      tags,
      summary: 'Create an agent',
      description: 'A new agent answers with the workspace default prompts until its prompts are saved.',
      body: createAgentBodySchema,
      status: 201,
      response: agentSchema,
      handler: async ({ ctx, body }) => presentAgent(await createAgent(ctx, body.name)),
    }),
    defineRoute({
      method: 'PATCH',
      url: '/v2/bots/:id/public',
      auth: 'write',
      tags,
      summary: 'Rename an agent',
      params: idParamsSchema,
      body: updateAgentBodySchema,
      errors: [404],
      response: agentSchema,
      handler: async ({ ctx, params, body }) => presentAgent(await renameAgent(ctx, params.id, body.name)),
    }),
    defineRoute({
      method: 'DELETE',
      url: '/v2/bots/:id/public',
      auth: 'write',
      tags,
      summary: 'Delete an agent',
      description:
        'Soft delete: the agent disappears from the listing and every agent route answers 404 for it, ' +
        'but its prompts, prompt history and folder assignments are kept in the database.',
      params: idParamsSchema,
      errors: [404],
      response: deletedAgentSchema,
      handler: async ({ ctx, params }) => {
        await deleteAgent(ctx, params.id);
        return { success: true as const };
      },
    }),
  ];
}
