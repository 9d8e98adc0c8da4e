import { defineRoute } from '../../http/route.js';
import { idParamsSchema } from '../../http/schemas.js';
import { presentDraftedRule, presentRule, presentRuleSummary, presentRuleVersion, presentRuleVersionItem } from './rules.presenter.js';
import {
  createRuleBodySchema,
  draftRuleBodySchema,
  listRulesQuerySchema,
  publishRuleBodySchema,
  refineRuleBodySchema,
  ruleListSchema,
  draftedRuleSchema,
  ruleSchema,
  ruleTestResultSchema,
  ruleVersionParamsSchema,
  ruleVersionSchema,
  ruleVersionsSchema,
  testRuleBodySchema,
  updateRuleBodySchema,
} from './rules.schemas.js';
import { draftRule, publishRuleGated, refineRule } from './rule-drafts.service.js';
import { testRule } from './rule-matching.service.js';
import { getVersion, listVersions, restoreVersion } from './rule-versions.service.js';
import { createRule, deleteRule, getRule, listRules, updateRule } from './rules.service.js';

const tags = ['Rules'];

export function ruleRoutes() {
  return [
    defineRoute({
      method: 'GET',
      url: '/v2/hc-rules/public',
      auth: 'read',
      tags,
      summary: 'List intent or business rules',
      description:
        'A top-level array of rule summaries (no `flowConfig`), most recently updated first. `isDraft` ' +
        'omitted or false: published rules; true: drafts. `type` defaults to `intent`.',
      querystring: listRulesQuerySchema,
      response: ruleListSchema,
      handler: async ({ ctx, query }) => (await listRules(ctx, query)).map(presentRuleSummary),
    }),
    defineRoute({
      method: 'POST',
      url: '/v2/hc-rules/public',
      auth: 'write',
      tags,
      summary: 'Create a rule',
      description:
        'Creates a published rule (version 1). Every `botIds` entry must be an agent of the workspace; a ' +
        'tool node must name an existing action and a tag node existing tags (400 naming the node). ' +
        'Business rules have no `flowConfig`: their description is the policy applied to every answer of ' +
        'their agents. Nodes without an `id` get one (`n1`, `n2`, ...).',
      body: createRuleBodySchema,
      status: 201,
      response: ruleSchema,
      handler: async ({ ctx, body }) => presentRule(await createRule(ctx, body)),
    }),
    defineRoute({
      method: 'POST',
      url: '/v2/hc-rules/draft/public',
      auth: 'write',
      tags,
      summary: 'Draft an intent rule from instructions',
      description:
        'Generates a draft intent rule (name, description and `flowConfig`) from plain-language ' +
        '`behaviorInstructions`: numbered or bulleted steps, "ask for X", "if X then Y", "hand over ' +
        'when ...", "tag as ...", quoted reply texts. Uses the configured model, or the built-in engine ' +
        'when none is configured. The draft has `botIds: []` until it is published. 502 when the model ' +
        'fails or drafts an invalid flow. `warnings` names every part of the instructions not turned into the flow.',
      body: draftRuleBodySchema,
      status: 201,
      errors: [502],
      response: draftedRuleSchema,
      handler: async ({ ctx, body }) => presentDraftedRule(await draftRule(ctx, body)),
    }),
    defineRoute({
      method: 'GET',
      url: '/v2/hc-rules/:id/public',
      auth: 'read',
      tags,
      summary: 'Get a rule',
      description: 'The full rule with its `flowConfig`. Drafts have `botIds: []`, `version` and `versionId` null.',
      params: idParamsSchema,
      errors: [404],
      response: ruleSchema,
      handler: async ({ ctx, params }) => presentRule(await getRule(ctx, params.id)),
    }),
    defineRoute({
      method: 'PATCH',
      url: '/v2/hc-rules/:id/public',
      auth: 'write',
      tags,
      summary: 'Update a rule',
      description:
        'Changes the given fields. A published rule gets a new published version with every change ' +
        '(history is append-only); a draft changes in place (its agents are set when it is published). ' +
        '`baseVersion`, when given, must be the current version (409 otherwise), so two editors cannot ' +
        'overwrite each other unknowingly. `type` cannot change.',
      params: idParamsSchema,
      body: updateRuleBodySchema,
      errors: [404, 409],
      response: ruleSchema,
      handler: async ({ ctx, params, body }) => presentRule(await updateRule(ctx, params.id, body)),
    }),
    defineRoute({
      method: 'DELETE',
      url: '/v2/hc-rules/:id/public',
      auth: 'write',
      tags,
      summary: 'Delete a rule',
      description: 'Deletes the rule with its versions and agent assignments; answers the deleted rule.',
      params: idParamsSchema,
      errors: [404],
      response: ruleSchema,
      handler: async ({ ctx, params }) => presentRule(await deleteRule(ctx, params.id)),
    }),
    defineRoute({
      method: 'POST',
      url: '/v2/hc-rules/:id/refine/public',
      auth: 'write',
      tags,
      summary: 'Refine a draft rule with instructions',
      description:
        'Applies `refinementInstructions` ("also ask for the email first", "hand over when the amount is ' +
        'over 500", "change the reply to ...") to a draft\'s flow, with the configured model or the ' +
        'built-in engine. 409 for a published rule (change it with PATCH).',
      params: idParamsSchema,
      body: refineRuleBodySchema,
      errors: [404, 409, 502],
      response: draftedRuleSchema,
      handler: async ({ ctx, params, body }) => presentDraftedRule(await refineRule(ctx, params.id, body.refinementInstructions)),
    }),
    defineRoute({
      method: 'POST',
      url: '/v2/hc-rules/:id/publish/public',
      auth: 'write',
      tags,
      summary: 'Publish a draft rule',
      description:
        'Publishes a draft for the given agents (at least one, each of the workspace): it becomes ' +
        'version 1. 409 when the rule is already published, and when drafting or refining did not ' +
        'understand part of its instructions (the draft\'s `warnings`, named in the message) unless ' +
        '`acceptWarnings` is true. First the test gate (docs/testing.md): 409 naming the test cases of the agents that pass ' +
        'today and fail with the rule, unless `force` is true.',
      params: idParamsSchema,
      body: publishRuleBodySchema,
      errors: [404, 409],
      response: ruleSchema,
      handler: async ({ ctx, params, body }) => presentRule(await publishRuleGated(ctx, params.id, body.botIds, { acceptWarnings: body.acceptWarnings, force: body.force })),
    }),
    defineRoute({
      method: 'GET',
      url: '/v2/hc-rules/:id/versions/public',
      auth: 'read',
      tags,
      summary: 'Version history of an intent rule',
      description:
        '`{ ruleId, currentPublishedVersionId, versions }`: version items without `flowConfig`, newest ' +
        'first (a draft has none). 400 for a business rule, 404 for an unknown rule.',
      params: idParamsSchema,
      errors: [404],
      response: ruleVersionsSchema,
      handler: async ({ ctx, params }) => {
        const { rule, versions } = await listVersions(ctx, params.id);
        return { ruleId: rule.id, currentPublishedVersionId: rule.currentVersionId, versions: versions.map((v) => presentRuleVersionItem(rule, v)) };
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/v2/hc-rules/:id/versions/:versionId/public',
      auth: 'read',
      tags,
      summary: 'One version of an intent rule',
      description: 'The version with its `flowConfig` and `inputSchema`. 400 for a business rule.',
      params: ruleVersionParamsSchema,
      errors: [404],
      response: ruleVersionSchema,
      handler: async ({ ctx, params }) => {
        const { rule, version } = await getVersion(ctx, params.id, params.versionId);
        return presentRuleVersion(rule, version);
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/v2/hc-rules/:id/versions/:versionId/restore/public',
      auth: 'write',
      tags,
      summary: 'Restore a version of an intent rule',
      description:
        'Makes the content of an earlier version (name, description, flow, trigger, input schema, agents ' +
        'still in the workspace) the rule\'s new current version; history is append-only, so the restore ' +
        'is a new version that records `restoredFromVersionId`. 409 when that version\'s flow names an ' +
        'action or tag that no longer exists.',
      params: ruleVersionParamsSchema,
      errors: [404, 409],
      response: ruleSchema,
      handler: async ({ ctx, params }) => presentRule(await restoreVersion(ctx, params.id, params.versionId)),
    }),
    defineRoute({
      method: 'POST',
      url: '/v2/hc-rules/:id/test/public',
      auth: 'read',
      tags,
      summary: 'Test an intent rule on a message',
      description:
        'A dry run that changes nothing: whether the rule\'s trigger matches the message (score and ' +
        'reason), and the walk through its flow: each node visited, condition results, reply texts with ' +
        '`${...}` interpolated, the tool calls it would make (not made), tags, and the resulting `state` ' +
        '(waiting for input, escalated, ended, completed). Send `state` back with the next message to ' +
        'resume the walk, as a conversation would. 400 for a business rule.',
      params: idParamsSchema,
      body: testRuleBodySchema,
      errors: [404, 502],
      response: ruleTestResultSchema,
      handler: async ({ ctx, params, body }) => testRule(ctx, params.id, body),
    }),
  ];
}

