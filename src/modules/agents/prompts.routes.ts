import { defineRoute } from '../../http/route.js';
import { idParamsSchema } from '../../http/schemas.js';
import { presentAgentPrompt, presentPromptDraft, presentSavedPrompt } from './prompts.presenter.js';
import {
  agentPromptSchema,
  draftParamsSchema,
  promptDraftBodySchema,
  promptDraftListQuerySchema,
  promptDraftListSchema,
  promptDraftSchema,
  promptHistorySchema,
  publishBodySchema,
  savePromptBodySchema,
} from './prompts.schemas.js';
import {
  type CurrentPrompt,
  createPromptDraft,
  discardDraft,
  getAgentPrompt,
  getDraft,
  getPromptHistory,
  listDrafts,
  publishDraftGated,
  saveAgentPrompt,
  updateDraft,
} from './prompts.service.js';

const tags = ['Agent prompts'];
const OTHER_WORKSPACE = ' An agent of another workspace answers 406; an unknown agent 404.';
const present = (p: CurrentPrompt) => presentAgentPrompt(p.agentId, p.current, p.defaults);

export function promptRoutes() {
  return [
    defineRoute({
      method: 'GET',
      url: '/v2/bots/:id/hc-prompt/public',
      auth: 'read',
      tags,
      summary: "An agent's prompts",
      description:
        "The prompts the agent answers with: its latest saved version, or the workspace default sections " +
        '(`isDefault: true`) while it has never saved any. Sections come as arrays (id, title, content, ' +
        'enabled; channel sections also `channel`: `email` or `chat`) and serialized as in the agent listing.' +
        OTHER_WORKSPACE,
      params: idParamsSchema,
      errors: [404, 406],
      response: agentPromptSchema,
      handler: async ({ ctx, params }) => present(await getAgentPrompt(ctx, params.id)),
    }),
    defineRoute({
      method: 'POST',
      url: '/v2/bots/:id/hc-prompt',
      auth: 'write',
      tags,
      summary: "Save an agent's prompts",
      description:
        'All three prompts are required, each the full array of its sections (a section left out is ' +
        'removed). Every save is a new, immutable version and counts as an update of the agent. Section ' +
        'ids must be unique within a prompt.' +
        OTHER_WORKSPACE,
      params: idParamsSchema,
      body: savePromptBodySchema,
      status: 201,
      errors: [404, 406],
      response: agentPromptSchema,
      handler: async ({ ctx, params, body }) => present(await saveAgentPrompt(ctx, params.id, body)),
    }),
    defineRoute({
      method: 'GET',
      url: '/v2/bots/:id/hc-prompt/history/public',
      auth: 'read',
      tags,
      summary: "An agent's saved prompt versions",
      description:
        'Every saved version, newest first, as a top-level array (as on the deployed service); each item has ' +
        'the shape of the current-prompt route plus `draftId`. Empty when the agent never saved prompts.' +
        OTHER_WORKSPACE,
      params: idParamsSchema,
      errors: [404, 406],
      response: promptHistorySchema,
      handler: async ({ ctx, params }) => (await getPromptHistory(ctx, params.id)).map((row) => presentSavedPrompt(params.id, row)),
    }),
    defineRoute({
      method: 'POST',
      url: '/v2/bots/:id/hc-prompt/drafts/public',
      auth: 'write',
      tags,
      summary: 'Create a prompt draft',
      description:
        'A proposed change, based on the current version. Prompts the body leaves out are copied from the ' +
        'current prompts. Nothing changes for the agent until the draft is published.' +
        OTHER_WORKSPACE,
      params: idParamsSchema,
      body: promptDraftBodySchema,
      status: 201,
      errors: [404, 406],
      response: promptDraftSchema,
      handler: async ({ ctx, params, body }) => presentPromptDraft(await createPromptDraft(ctx, params.id, body ?? {})),
    }),
    defineRoute({
      method: 'GET',
      url: '/v2/bots/:id/hc-prompt/drafts/public',
      auth: 'read',
      tags,
      summary: 'List prompt drafts',
      description: 'Drafts of the agent with the given status (`draft` by default), most recently updated first.' + OTHER_WORKSPACE,
      params: idParamsSchema,
      querystring: promptDraftListQuerySchema,
      errors: [404, 406],
      response: promptDraftListSchema,
      handler: async ({ ctx, params, query }) => ({
        drafts: (await listDrafts(ctx, params.id, query.status)).map(presentPromptDraft),
      }),
    }),
    defineRoute({
      method: 'GET',
      url: '/v2/bots/:id/hc-prompt/drafts/:draftId/public',
      auth: 'read',
      tags,
      summary: 'Get a prompt draft',
      description: OTHER_WORKSPACE.trim(),
      params: draftParamsSchema,
      errors: [404, 406],
      response: promptDraftSchema,
      handler: async ({ ctx, params }) => presentPromptDraft(await getDraft(ctx, params.id, params.draftId)),
    }),
    defineRoute({
      method: 'PUT',
      url: '/v2/bots/:id/hc-prompt/drafts/:draftId/public',
      auth: 'write',
      tags,
      summary: 'Update a prompt draft',
      description: 'Replaces the prompts the body names (and the note). 409 once the draft is published or discarded.' + OTHER_WORKSPACE,
      params: draftParamsSchema,
      body: promptDraftBodySchema,
      errors: [404, 406, 409],
      response: promptDraftSchema,
      handler: async ({ ctx, params, body }) => presentPromptDraft(await updateDraft(ctx, params.id, params.draftId, body ?? {})),
    }),
    defineRoute({
      method: 'POST',
      url: '/v2/bots/:id/hc-prompt/drafts/:draftId/publish/public',
      auth: 'write',
      tags,
      summary: 'Publish a prompt draft',
      description:
        "Saves the draft's prompts as the agent's next version and marks the draft `published`. When a " +
        'version was saved after the draft was made the answer is 409, unless the body says ' +
        '`{ "overwrite": true }`. First the test gate (docs/testing.md): 409 naming the test cases of the agent that ' +
        'pass today and fail with the draft, unless the body says `{ "force": true }`. The body is optional.' +
        OTHER_WORKSPACE,
      params: draftParamsSchema,
      body: publishBodySchema,
      errors: [404, 406, 409],
      response: agentPromptSchema,
      handler: async ({ ctx, params, body }) =>
        present(await publishDraftGated(ctx, params.id, params.draftId, { overwrite: body?.overwrite ?? false, force: body?.force ?? false })),
    }),
    defineRoute({
      method: 'DELETE',
      url: '/v2/bots/:id/hc-prompt/drafts/:draftId/public',
      auth: 'write',
      tags,
      summary: 'Discard a prompt draft',
      description: 'The draft stays readable with status `discarded`. 409 once it is published.' + OTHER_WORKSPACE,
      params: draftParamsSchema,
      errors: [404, 406, 409],
      response: promptDraftSchema,
      handler: async ({ ctx, params }) => presentPromptDraft(await discardDraft(ctx, params.id, params.draftId)),
    }),
  ];
}
