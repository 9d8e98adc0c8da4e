import { z } from 'zod';
import { PROVIDERS } from '../../ingest/providers/index.js';
import { recurrenceSchema } from '../../jobs/recurrence.js';

export const providerSchema = z.enum(PROVIDERS).describe('`notion`, `zendesk`, `confluence` or `googledrive`');
export const providerParamsSchema = z.object({ provider: providerSchema }).strict();

const secret = (description: string) => z.string().min(1).max(20_000).describe(description);

/** Every provider's credential fields; which ones a provider needs is checked by the service, naming the field. */
export const connectionBodySchema = z
  .object({
    token: secret('notion: the internal integration secret (`ntn_...`)').optional(),
    subdomain: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{0,62}$/i, 'a Zendesk subdomain: letters, digits and hyphens')
      .optional()
      .describe('zendesk: `acme` for acme.zendesk.com (or give `baseUrl`)'),
    email: z.string().min(3).max(320).optional().describe('zendesk, confluence: the account the API token belongs to'),
    apiToken: secret('zendesk, confluence: an API token').optional(),
    accessToken: secret('googledrive: an OAuth access token with a Drive read scope').optional(),
    serviceAccountJson: secret("googledrive: a service account's JSON key (the files must be shared with its email)").optional(),
    baseUrl: z
      .string()
      .min(1)
      .max(2048)
      .optional()
      .describe("the provider API's base (default its public API; required for confluence: `https://acme.atlassian.net/wiki`)"),
  })
  .strict()
  .meta({ id: 'ProviderCredentials', examples: [{ subdomain: 'acme', email: 'support-ops@acme.com', apiToken: 'your-api-token' }] });
export type ConnectionBody = z.output<typeof connectionBodySchema>;

export const connectionSchema = z
  .object({
    provider: providerSchema,
    connected: z.boolean(),
    account: z.string().optional().describe('the account the provider reported when the credentials were checked'),
    baseUrl: z.string().optional(),
    credentials: z.record(z.string(), z.string()).optional().describe('the stored fields, secrets as `********`'),
    syncInterval: z
      .string()
      .nullable()
      .optional()
      .describe("how often the provider's sources re-sync when they set no interval of their own; null: the workspace's default (docs/sources.md)"),
    createdAt: z.iso.datetime().optional(),
    updatedAt: z.iso.datetime().optional(),
  })
  .meta({ id: 'ProviderConnection' });

export const connectionTestSchema = z
  .object({
    provider: providerSchema,
    ok: z.boolean(),
    account: z.string().nullable(),
    error: z.string().nullable().describe('why the provider refused, when it did'),
  })
  .meta({ id: 'ProviderConnectionTest' });

export const connectionPatchSchema = z
  .object({
    syncInterval: recurrenceSchema
      .nullable()
      .describe("the re-sync of the provider's sources that set none of their own: `off`, `hourly`, `daily`, `weekly`, a cron expression, or null for the workspace's default"),
  })
  .strict()
  .meta({ examples: [{ syncInterval: 'daily' }] });
