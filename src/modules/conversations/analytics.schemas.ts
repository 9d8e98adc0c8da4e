import { z } from 'zod';
import { uuidSchema } from '../../http/schemas.js';
import { CONVERSATION_STATUSES } from '../tags/index.js';
import { CHANNELS, CONVERSATION_SOURCES, listOf } from './conversations.schemas.js';

/** The longest window analytics reads, in days. */
export const MAX_WINDOW_DAYS = 366;

const epochSchema = z.coerce
  .number({ error: 'expected a Unix epoch (seconds; values above 10^11 are read as milliseconds)' })
  .finite()
  .min(0)
  .transform((n) => new Date(n > 1e11 ? n : n * 1000));

/** Whether the runtime (and so PostgreSQL's zone database, which uses the same IANA names) knows a time zone. */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

export const analyticsQuerySchema = z
  .object({
    startEpoch: epochSchema.describe('start of the window (inclusive), Unix seconds (milliseconds above 10^11)'),
    endEpoch: epochSchema.describe('end of the window (exclusive), Unix seconds (milliseconds above 10^11)'),
    source: listOf(z.enum([...CONVERSATION_SOURCES, 'all']), '`all`, or one or more of `api`, `replay`, `testsuite` (default `api`)'),
    channel: listOf(z.enum(CHANNELS), '`chat`, `email`'),
    latestStatus: listOf(z.enum(CONVERSATION_STATUSES), 'the conversation status'),
    latestSentiment: listOf(z.enum(['positive', 'neutral', 'negative']), "the sentiment of the conversation's last customer message"),
    usedSubfolderIds: listOf(uuidSchema, 'folders that directly hold an article the agent used'),
    tagIds: listOf(uuidSchema, 'conversations with any of these tags'),
    ruleIds: listOf(uuidSchema, 'conversations in which any of these rules ran'),
    escalationReasonTagIds: listOf(uuidSchema, 'conversations with any of these `Escalation Reason` tags'),
    csatRatings: listOf(
      z.string().regex(/^[1-5]$/, 'expected an integer from 1 to 5').transform(Number),
      'conversations with a reply rated with any of these (1-5)',
    ),
    timezone: z
      .string()
      .min(1)
      .max(64)
      .refine(isTimeZone, { message: 'unknown time zone (use an IANA name such as Europe/Berlin)' })
      .default('UTC')
      .describe('IANA time zone days and hours are grouped in (default UTC)'),
  })
  .strict()
  .superRefine((q, ctx) => {
    if (q.startEpoch.getTime() >= q.endEpoch.getTime()) ctx.addIssue({ code: 'custom', path: ['startEpoch'], message: 'startEpoch must be before endEpoch' });
    else if (q.endEpoch.getTime() - q.startEpoch.getTime() > MAX_WINDOW_DAYS * 86_400_000) {
      ctx.addIssue({ code: 'custom', path: ['endEpoch'], message: `the window is at most ${MAX_WINDOW_DAYS} days` });
    }
  });
export type AnalyticsQuery = z.output<typeof analyticsQuerySchema>;

const metricsSchema = z.object({
  totalConversations: z.number(),
  resolvedConversations: z.number(),
  escalatedConversations: z.number(),
  waitingForCustomerConversations: z.number(),
  aiResolutionRate: z.number(),
  humanEscalationRate: z.number(),
  averageResponseTimeMs: z.number(),
  averageCsatRating: z.number(),
  confirmedResolvedConversations: z.number(),
  assumedResolvedConversations: z.number(),
});

const cardSchema = z.object({ value: z.number(), comparisonValue: z.number(), change: z.number().describe('(value - comparisonValue) / comparisonValue; 0 when the comparison is 0') });
const folderUsageSchema = z.array(z.object({ folderId: z.string(), folderTitle: z.string(), conversations: z.number() }));

export const analyticsSchema = z
  .object({
    botId: z.uuid(),
    startEpoch: z.number(),
    endEpoch: z.number(),
    timezone: z.string(),
    summary: metricsSchema,
    comparisonSummary: metricsSchema,
    summaryCards: z.object({
      conversationVolume: cardSchema,
      aiResolutionRate: cardSchema,
      humanEscalationRate: cardSchema,
      averageResponseTime: cardSchema,
      averageCsatRating: cardSchema,
    }),
    statusBreakdown: z.array(z.object({ status: z.string(), count: z.number(), percentage: z.number() })),
    usageByChannel: z.array(z.object({ channel: z.string(), conversations: z.number(), resolved: z.number() })),
    conversationVolumeChartData: z.array(z.object({ date: z.string(), resolved: z.number(), escalated: z.number(), waitingForCustomer: z.number() })),
    resolutionRateChartData: z.array(z.object({ date: z.string(), total: z.number(), resolved: z.number(), aiResolutionRate: z.number() })),
    responseTimeChartData: z.array(z.object({ date: z.string(), averageFirstResponseTimeMs: z.number() })),
    knowledgeUsage: z.object({ current: folderUsageSchema, comparison: folderUsageSchema }),
    ruleAnalytics: z.array(
      z.object({
        ruleId: z.string(),
        ruleName: z.string(),
        conversations: z.number(),
        resolved: z.number(),
        escalated: z.number(),
        resolutionRate: z.number(),
        escalationRate: z.number(),
        averageCsatRating: z.number(),
      }),
    ),
    escalationReasons: z.array(z.object({ tagId: z.string(), tagName: z.string(), count: z.number() })),
    hourlyVolume: z.array(z.array(z.number())).describe('7 rows (weekday 0 = Sunday) of 24 hourly counts'),
    csatChartData: z.array(z.object({ date: z.string(), ratings: z.number(), averageCsatRating: z.number(), csatPercentage: z.number().describe('share of ratings of 4 or 5') })),
  })
  .meta({ id: 'AgentAnalytics' });
