import { z } from 'zod';
import { defineRoute } from '../../http/route.js';
import { idParamsSchema } from '../../http/schemas.js';
import { presentDataStep } from './tools.presenter.js';
import { dataStepSchema } from './tools.schemas.js';
import { createStepBodySchema, listStepsQuerySchema, stepRecordSchema, testStepBodySchema, updateStepBodySchema } from './steps.schemas.js';
import { createStep, deleteStep, getStep, listSteps, testStep, updateStep } from './steps.service.js';

const tags = ['Actions'];
const RULES =
  '`requestUrl`, headers and body interpolate `${fieldName}` (an input) and `${stepId.key}` (an earlier ' +
  "step's mapped output); `{{placeholder}}` is refused with a 400 naming the `${...}` form. A header or body " +
  'value sent as `{ "hide": true, "value": "<secret>" }` is stored sealed (AES-256-GCM) and answered as ' +
  '`********`; sending `********` back keeps the stored value, a new string replaces it (and stays hidden). ' +
  '`responseMapping` maps output keys to paths into the JSON response (`data.items[0].id`, `results[*].name`).';

export function stepRoutes() {
  return [
    defineRoute({
      method: 'POST',
      url: '/v2/api-function-configs/public',
      auth: 'write',
      tags,
      summary: 'Create an external API call step',
      description: `A step of an action's or attribute's chain (\`toolId\`, 404 for one not in the workspace; at most 10 steps), run in ascending \`stepNumber\` (default: after the last). ${RULES} An explicit \`id\` already in use is a 409.`,
      body: createStepBodySchema,
      status: 201,
      errors: [404, 409],
      response: dataStepSchema,
      handler: async ({ ctx, body }) => presentDataStep(await createStep(ctx, body)),
    }),
    defineRoute({
      method: 'GET',
      url: '/v2/api-function-configs/public',
      auth: 'read',
      tags,
      summary: 'List external API call steps',
      description: 'Every step of the workspace, or with `toolId` the steps of one action or attribute in the order they run; sensitive values as `********`.',
      querystring: listStepsQuerySchema,
      errors: [404],
      response: z.array(dataStepSchema),
      handler: async ({ ctx, query }) => (await listSteps(ctx, query.toolId)).map(presentDataStep),
    }),
    defineRoute({
      method: 'GET',
      url: '/v2/api-function-configs/:id/public',
      auth: 'read',
      tags,
      summary: 'Get an external API call step',
      params: idParamsSchema,
      errors: [404],
      response: dataStepSchema,
      handler: async ({ ctx, params }) => presentDataStep(await getStep(ctx, params.id)),
    }),
    defineRoute({
      method: 'PATCH',
      url: '/v2/api-function-configs/:id/public',
      auth: 'write',
      tags,
      summary: 'Update an external API call step',
      description: `Every field optional; send only changes. An unknown id is a 404 (the deployed service answered 500). ${RULES}`,
      params: idParamsSchema,
      body: updateStepBodySchema,
      errors: [404],
      response: dataStepSchema,
      handler: async ({ ctx, params, body }) => presentDataStep(await updateStep(ctx, params.id, body)),
    }),
    defineRoute({
      method: 'DELETE',
      url: '/v2/api-function-configs/:id/public',
      auth: 'write',
      tags,
      summary: 'Delete an external API call step',
      description: 'Answers the deleted step (sensitive values as `********`).',
      params: idParamsSchema,
      errors: [404],
      response: dataStepSchema,
      handler: async ({ ctx, params }) => presentDataStep(await deleteStep(ctx, params.id)),
    }),
    defineRoute({
      method: 'POST',
      url: '/v2/api-function-configs/:id/test/public',
      auth: 'write',
      tags,
      summary: 'Test one external API call step',
      description:
        'Runs the step alone against the real API with `inputs` and, for the `${stepId.key}` it names, ' +
        '`previous` outputs (write scope: the call may change data). Answers the request as sent (secrets ' +
        'masked), status, duration, the response (64 KB at most, echoed secrets masked), the mapped output, and ' +
        'a failure kind: timeout, blocked_address, network, too_large, http_error, non_json, mapping_not_found, ' +
        'invalid_input, secret.',
      params: idParamsSchema,
      body: testStepBodySchema,
      errors: [404],
      response: stepRecordSchema,
      handler: async ({ ctx, params, body }) => testStep(ctx, params.id, body),
    }),
  ];
}
