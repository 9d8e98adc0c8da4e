import { z } from 'zod';

export const WIDGET_LIMITS = { origins: 50, visitorRateLimit: 100_000, name: 200 } as const;

/** `scheme://host[:port]` exactly as a browser sends it in `Origin` (no path, no trailing slash). */
const originSchema = z
  .string()
  .max(300)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
    } catch {
      return false;
    }
  }, 'must be an origin as browsers send it: scheme://host[:port], lower case, no path or trailing slash (e.g. https://shop.example)');

export const createWidgetKeyBodySchema = z
  .strictObject({
    name: z.string().trim().min(1).max(WIDGET_LIMITS.name),
    allowedOrigins: z
      .array(originSchema)
      .min(1)
      .max(WIDGET_LIMITS.origins)
      .describe('the pages that may use the key: each an origin, e.g. `https://shop.example`'),
    visitorRateLimit: z
      .number()
      .int()
      .min(1)
      .max(WIDGET_LIMITS.visitorRateLimit)
      .optional()
      .describe('requests per visitor per rate-limit window (`PARLEY_RATE_LIMIT_WINDOW_MS`); default `PARLEY_WIDGET_VISITOR_RATE_LIMIT`'),
  })
  .meta({ examples: [{ name: 'Shop', allowedOrigins: ['https://shop.example'] }] });
export type CreateWidgetKeyBody = z.output<typeof createWidgetKeyBodySchema>;

export const widgetKeySchema = z
  .object({
    id: z.uuid(),
    companyId: z.uuid(),
    botId: z.uuid(),
    name: z.string(),
    key: z.string().describe('the publishable key (`pk_...`): not a secret, it works only from `allowedOrigins`'),
    allowedOrigins: z.array(z.string()),
    visitorRateLimit: z.number().int().nullable().describe("null: the deployment's default"),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'WidgetKey' });
