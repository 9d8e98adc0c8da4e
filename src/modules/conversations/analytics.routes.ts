import { defineRoute } from '../../http/route.js';
import { idParamsSchema } from '../../http/schemas.js';
import { analyticsQuerySchema, analyticsSchema } from './analytics.schemas.js';
import { agentAnalytics } from './analytics.service.js';

export function analyticsRoutes() {
  return [
    defineRoute({
      method: 'GET',
      url: '/v2/bots/:id/hc-analytics/public',
      auth: 'read',
      tags: ['Agents'],
      summary: "An agent's analytics for a time window",
      description:
        'Conversations of the agent created in [`startEpoch`, `endEpoch`) (Unix seconds; values above 10^11 are read as ' +
        'milliseconds; at most 366 days) and the window of the same length before it (`comparisonSummary`, the cards\' ' +
        'comparison values, `knowledgeUsage.comparison`). Days and hours are grouped in `timezone` (IANA, default UTC); ' +
        'daily series cover every day of the window. Filters take one value, a repeated parameter or a comma list. ' +
        'Resolutions count confirmed ones (`Resolved by AI`) and assumed ones (waiting for the customer longer than ' +
        '`PARLEY_ASSUMED_RESOLUTION_HOURS` after the last reply), also apart. 406 for an agent of another workspace.',
      params: idParamsSchema,
      querystring: analyticsQuerySchema,
      errors: [404, 406],
      response: analyticsSchema,
      handler: async ({ ctx, params, query }) => agentAnalytics(ctx, params.id, query),
    }),
  ];
}
