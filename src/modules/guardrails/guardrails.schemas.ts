import { z } from 'zod';
import { documentedAs, uuidSchema } from '../../http/schemas.js';
import { GUARDRAIL_ACTIONS, GUARDRAIL_KINDS, GUARDRAIL_STAGES, guardrailConfigSchema } from '../../evaluators/guardrails.js';

const botIds = z.array(uuidSchema).max(100).describe('agents the guardrail applies to; each an agent of the workspace');

const example = { name: 'No card numbers', kind: 'pii_redaction', stage: 'input', action: 'redact', config: { types: ['card', 'iban'] }, botIds: ['7c1e4f8a-2b3d-4e5f-8a9b-0c1d2e3f4a5b'] };

/**
 * The body of create and update. The kind, its config, the stage and the action are checked
 * together in the service (`guardrailDefinitionSchema`), so that an update of one field is checked
 * against the stored others; errors name the field (`body.config.types.0`).
 */
export const createGuardrailBodySchema = z
  .strictObject({
    name: z.string(),
    kind: z.enum(GUARDRAIL_KINDS),
    stage: z.enum(GUARDRAIL_STAGES),
    action: z.enum(GUARDRAIL_ACTIONS),
    config: documentedAs(z.record(z.string(), z.unknown()), guardrailConfigSchema).default({}),
    isEnabled: z.boolean().default(true),
    botIds: botIds.default([]),
  })
  .meta({ examples: [example] });

export const updateGuardrailBodySchema = z
  .strictObject({
    name: z.string().optional(),
    kind: z.enum(GUARDRAIL_KINDS).optional(),
    stage: z.enum(GUARDRAIL_STAGES).optional(),
    action: z.enum(GUARDRAIL_ACTIONS).optional(),
    config: documentedAs(z.record(z.string(), z.unknown()), guardrailConfigSchema).optional(),
    isEnabled: z.boolean().optional(),
    botIds: botIds.optional(),
  })
  .meta({ examples: [{ isEnabled: false }] });

export const listGuardrailsQuerySchema = z.object({
  botId: uuidSchema.optional().describe('only the guardrails assigned to this agent'),
  stage: z.enum(GUARDRAIL_STAGES).optional(),
});

export const testGuardrailsBodySchema = z
  .strictObject({
    stage: z.enum(GUARDRAIL_STAGES),
    text: z.string().max(100_000).describe('the customer message (input) or the agent answer (output)'),
    citations: z.array(z.string().max(100)).max(100).optional().describe('ids of the articles the answer cites (required_citation)'),
    botId: uuidSchema.optional().describe("runs that agent's enabled guardrails"),
    guardrailIds: z.array(uuidSchema).min(1).max(100).optional().describe('runs these guardrails (enabled or not) instead'),
  })
  .meta({ examples: [{ stage: 'input', text: 'My card is 4111 1111 1111 1111, please refund it', botId: '7c1e4f8a-2b3d-4e5f-8a9b-0c1d2e3f4a5b' }] });

export const guardrailSchema = z
  .object({
    id: z.uuid(),
    companyId: z.uuid(),
    name: z.string(),
    kind: z.enum(GUARDRAIL_KINDS),
    stage: z.enum(GUARDRAIL_STAGES),
    action: z.enum(GUARDRAIL_ACTIONS),
    config: documentedAs(z.record(z.string(), z.unknown()), guardrailConfigSchema),
    isEnabled: z.boolean(),
    botIds: z.array(z.uuid()),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Guardrail' });

export const guardrailTestResultSchema = z
  .object({
    stage: z.enum(GUARDRAIL_STAGES),
    text: z.string().describe('the text after every matching `redact`'),
    blocked: z.boolean().describe('a `block` guardrail matched: no answer, the agent hands over (guardrail_block)'),
    escalate: z.boolean().describe('an `escalate` guardrail matched: answer, then hand over'),
    results: z.array(
      z.object({
        id: z.uuid(),
        name: z.string(),
        kind: z.enum(GUARDRAIL_KINDS),
        action: z.enum(GUARDRAIL_ACTIONS),
        matched: z.boolean(),
        matches: z.array(
          z.object({
            type: z.string(),
            value: z.string().optional().describe('the matched phrase or topic; never a personal-data value'),
            start: z.number().int().optional(),
            end: z.number().int().optional(),
          }),
        ),
        detail: z.string(),
      }),
    ),
  })
  .meta({ id: 'GuardrailTestResult' });
