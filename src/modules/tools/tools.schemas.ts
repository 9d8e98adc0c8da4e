import { z } from 'zod';
import { documentedAs, queryBooleanSchema, uuidSchema } from '../../http/schemas.js';

/** Where an action or attribute was made: a UI, the API, a widget, or an integration provider. */
export const TOOL_SOURCES = ['ui', 'api', 'widget', 'notion', 'zendesk', 'confluence', 'googledrive'] as const;
export const FIELD_TYPES = ['string', 'number', 'boolean'] as const;
export const TOOL_LIMITS = { name: 200, description: 4_000, fields: 50 } as const;

const fieldName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'a field name: a letter or _, then letters, digits or _ (at most 64)');

const uniqueNames = <T extends { name: string }>(fields: T[], ctx: z.RefinementCtx) => {
  const seen = new Set<string>();
  fields.forEach((f, i) => {
    if (seen.has(f.name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `field "${f.name}" is declared twice` });
    seen.add(f.name);
  });
};

export const inputFieldsSchema = z
  .array(
    z.strictObject({
      name: fieldName,
      type: z.enum(FIELD_TYPES),
      required: z.boolean().default(false),
      description: z.string().max(1_000).default(''),
    }),
  )
  .max(TOOL_LIMITS.fields)
  .superRefine(uniqueNames);

export const outputFieldsSchema = z
  .array(z.strictObject({ name: fieldName, type: z.enum(FIELD_TYPES) }))
  .max(TOOL_LIMITS.fields)
  .superRefine(uniqueNames);

export const createToolBodySchema = z
  .strictObject({
    name: z.string().trim().min(1).max(TOOL_LIMITS.name),
    description: z.string().max(TOOL_LIMITS.description).default(''),
    alwaysGet: z.boolean().default(false).describe('false: an Action (called from rule flows); true: an Attribute (runs every conversation)'),
    source: z.enum(TOOL_SOURCES).default('api'),
  })
  .meta({ examples: [{ name: 'Order lookup', description: 'Looks up an order by its number', alwaysGet: false, source: 'api' }] });

export const updateToolBodySchema = z
  .strictObject({
    name: z.string().trim().min(1).max(TOOL_LIMITS.name).optional(),
    description: z.string().max(TOOL_LIMITS.description).optional(),
    inputFields: inputFieldsSchema.optional(),
    outputFields: outputFieldsSchema.optional(),
  })
  .meta({
    examples: [
      {
        inputFields: [{ name: 'orderNumber', type: 'string', required: true, description: 'The order number, e.g. A-1001' }],
        outputFields: [{ name: 'status', type: 'string' }, { name: 'total', type: 'number' }],
      },
    ],
  });

export const listToolsQuerySchema = z.object({
  alwaysGet: queryBooleanSchema.optional().describe('true: attributes only; false: actions only'),
  botId: uuidSchema.optional().describe('only those assigned to this agent'),
});

export const assignToolBodySchema = z
  .strictObject({ botIds: z.array(uuidSchema).min(1).max(100), action: z.enum(['ADD', 'DELETE']) })
  .meta({ examples: [{ botIds: ['7c1e4f8a-2b3d-4e5f-8a9b-0c1d2e3f4a5b'], action: 'ADD' }] });

/** What `fieldsSchema` (tools.presenter.ts) derives from declared fields: `{}` while there are none. */
export const fieldsJsonSchema = z
  .union([
    z.strictObject({}),
    z.strictObject({
      type: z.literal('object'),
      properties: z.record(z.string(), z.strictObject({ type: z.enum(FIELD_TYPES), description: z.string().optional() })),
      required: z.array(z.string()).optional(),
      additionalProperties: z.literal(false),
    }),
  ])
  .meta({ id: 'FieldsJsonSchema', description: 'JSON Schema derived from the declared fields; {} while none are declared.' });
const jsonSchema = documentedAs(z.record(z.string(), z.unknown()), fieldsJsonSchema).describe('JSON Schema derived from the fields; {} while none are declared');

/** A step's request headers as answered: every value a string, sensitive ones `********`. */
const stepHeadersSchema = z.record(z.string(), z.string()).meta({ id: 'StepHeaders', description: 'Header name -> value; sensitive values as `********`.' });

export const dataStepSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    toolId: z.uuid().nullable(),
    stepNumber: z.number().int(),
    method: z.string(),
    url: z.string(),
    headers: documentedAs(z.record(z.string(), z.unknown()), stepHeadersSchema).describe('sensitive values as ********'),
    body: z.unknown().describe('sensitive values as ********'),
    saveFromResponse: z.record(z.string(), z.string()),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'DataStep' });

const toolFields = {
  id: z.uuid(),
  companyId: z.uuid(),
  name: z.string(),
  description: z.string(),
  alwaysGet: z.boolean(),
  source: z.string(),
  inputFields: z.array(z.object({ name: z.string(), type: z.enum(FIELD_TYPES), required: z.boolean(), description: z.string() })),
  outputFields: z.array(z.object({ name: z.string(), type: z.enum(FIELD_TYPES) })),
  inputSchema: jsonSchema,
  outputSchema: jsonSchema,
  botIds: z.array(z.uuid()),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
};
export const toolSchema = z.object(toolFields).meta({ id: 'Tool', description: 'An Action (alwaysGet false) or Attribute (alwaysGet true).' });
export const toolWithStepsSchema = z.object({ ...toolFields, steps: z.array(dataStepSchema) }).meta({ id: 'ToolWithSteps' });
