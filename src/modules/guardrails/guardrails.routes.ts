import { z } from 'zod';
import { defineRoute } from '../../http/route.js';
import { idParamsSchema } from '../../http/schemas.js';
import { presentGuardrail } from './guardrails.presenter.js';
import {
  createGuardrailBodySchema,
  guardrailSchema,
  guardrailTestResultSchema,
  listGuardrailsQuerySchema,
  testGuardrailsBodySchema,
  updateGuardrailBodySchema,
} from './guardrails.schemas.js';
import { createGuardrail, deleteGuardrail, getGuardrail, listGuardrails, testGuardrails, updateGuardrail } from './guardrails.service.js';

const tags = ['Guardrails'];
const KINDS =
  'Kinds and configs: `blocked_topics` `{ topics }`, `blocked_phrases` `{ phrases, caseSensitive? }`, `pii_redaction` ' +
  '`{ types: email|phone|card|iban|ssn }`, `answer_length` `{ maxCharacters }` (output), `required_citation` `{}` (output). ' +
  'Actions: `block`, `redact` (phrases and PII), `escalate`, `flag`. A config, stage or action that does not fit the kind is a 400 naming the field.';

export function guardrailRoutes() {
  return [
    defineRoute({
      method: 'GET',
      url: '/v2/guardrails/public',
      auth: 'read',
      tags,
      summary: 'List guardrails',
      description: 'In creation order, which is the order they run in. `botId`: only those assigned to that agent (404 for an unknown agent).',
      querystring: listGuardrailsQuerySchema,
      errors: [404],
      response: z.array(guardrailSchema),
      handler: async ({ ctx, query }) => (await listGuardrails(ctx, query)).map(presentGuardrail),
    }),
    defineRoute({
      method: 'POST',
      url: '/v2/guardrails/public',
      auth: 'write',
      tags,
      summary: 'Create a guardrail',
      description: `${KINDS} Every \`botIds\` entry must be an agent of the workspace.`,
      body: createGuardrailBodySchema,
      status: 201,
      response: guardrailSchema,
      handler: async ({ ctx, body }) => presentGuardrail(await createGuardrail(ctx, body)),
    }),
    defineRoute({
      method: 'POST',
      url: '/v2/guardrails/test/public',
      auth: 'read',
      tags,
      summary: 'Test guardrails on a text',
      description:
        'Runs guardrails of one stage on a text and answers what each would do, in order: the named ' +
        '`guardrailIds` (even disabled ones), else the enabled guardrails of `botId`, else every enabled ' +
        'guardrail of the workspace. Redactions apply in turn. Changes nothing; personal data found is ' +
        'reported by type and position, never by value.',
      body: testGuardrailsBodySchema,
      errors: [404],
      response: guardrailTestResultSchema,
      handler: async ({ ctx, body }) => testGuardrails(ctx, body),
    }),
    defineRoute({
      method: 'GET',
      url: '/v2/guardrails/:id/public',
      auth: 'read',
      tags,
      summary: 'Get a guardrail',
      params: idParamsSchema,
      errors: [404],
      response: guardrailSchema,
      handler: async ({ ctx, params }) => presentGuardrail(await getGuardrail(ctx, params.id)),
    }),
    defineRoute({
      method: 'PUT',
      url: '/v2/guardrails/:id/public',
      auth: 'write',
      tags,
      summary: 'Update a guardrail',
      description: `Changes the fields given; the others keep their values, and the result is checked as a whole (a new \`kind\` needs its \`config\`). \`botIds\` replaces the assignment. ${KINDS}`,
      params: idParamsSchema,
      body: updateGuardrailBodySchema,
      errors: [404],
      response: guardrailSchema,
      handler: async ({ ctx, params, body }) => presentGuardrail(await updateGuardrail(ctx, params.id, body)),
    }),
    defineRoute({
      method: 'DELETE',
      url: '/v2/guardrails/:id/public',
      auth: 'write',
      tags,
      summary: 'Delete a guardrail',
      description: 'Answers the deleted guardrail.',
      params: idParamsSchema,
      errors: [404],
      response: guardrailSchema,
      handler: async ({ ctx, params }) => presentGuardrail(await deleteGuardrail(ctx, params.id)),
    }),
  ];
}
