import type { WorkspaceContext } from '../../context.js';
import { requireAgentOrNotAcceptable } from '../agents/index.js';
import { folderTitles } from '../knowledge/index.js';
import { ruleNames } from '../rules/index.js';
import { CONVERSATION_STATUSES, type EscalationReason, SYSTEM_TAG_IDS } from '../tags/index.js';
import { type AnalyticsFilter, analyticsCounts, type DayRow } from './analytics.repository.js';
import type { AnalyticsQuery } from './analytics.schemas.js';
import { CHANNELS } from './conversations.schemas.js';

/**
 * Agent analytics (docs/analytics.md): the summary of a window and of the window of the same
 * length just before it, the cards, breakdowns and daily series, all from the agent's live
 * conversations created in the window.
 */

const rate = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 10_000) / 10_000 : 0);
const mean = (sum: number, count: number) => (count > 0 ? Math.round((sum / count) * 100) / 100 : 0);
const change = (value: number, comparison: number) => (comparison !== 0 ? Math.round(((value - comparison) / comparison) * 10_000) / 10_000 : 0);

function summarize(days: DayRow[]) {
  const t = days.reduce(
    (acc, d) => {
      for (const k of Object.keys(acc) as (keyof typeof acc)[]) acc[k] += d[k];
      return acc;
    },
    { total: 0, confirmed: 0, assumed: 0, escalated: 0, waiting: 0, replies: 0, responseMs: 0, ratings: 0, ratingSum: 0 },
  );
  const resolved = t.confirmed + t.assumed;
  return {
    totalConversations: t.total,
    resolvedConversations: resolved,
    escalatedConversations: t.escalated,
    waitingForCustomerConversations: t.waiting,
    aiResolutionRate: rate(resolved, t.total),
    humanEscalationRate: rate(t.escalated, t.total),
    averageResponseTimeMs: mean(t.responseMs, t.replies),
    averageCsatRating: mean(t.ratingSum, t.ratings),
    confirmedResolvedConversations: t.confirmed,
    assumedResolvedConversations: t.assumed,
  };
}

/** Every local date from the start's to the end's (exclusive end), as YYYY-MM-DD. */
export function windowDays(start: Date, end: Date, timezone: string): string[] {
  const local = (d: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(d);
  const first = local(start);
  const last = local(new Date(end.getTime() - 1));
  const days: string[] = [];
  const cursor = new Date(`${first}T00:00:00Z`);
  for (let i = 0; i < 400; i++) {
    const day = cursor.toISOString().slice(0, 10);
    days.push(day);
    if (day >= last) break;
    cursor.setUTCDate(cursor.getUTCDate() + 1);
  }
  return days;
}

export async function agentAnalytics(ctx: WorkspaceContext, agentId: string, query: AnalyticsQuery) {
  await requireAgentOrNotAcceptable(ctx, agentId);
  const start = query.startEpoch;
  const end = query.endEpoch;
  const length = end.getTime() - start.getTime();
  const sources = query.source?.includes('all') ? undefined : (query.source ?? ['api']);
  const filter: AnalyticsFilter = {
    agentId,
    start,
    end,
    sources,
    channels: query.channel,
    statuses: query.latestStatus,
    sentiments: query.latestSentiment,
    subfolderIds: query.usedSubfolderIds,
    tagIds: query.tagIds,
    ruleIds: query.ruleIds,
    escalationReasonTagIds: query.escalationReasonTagIds,
    csatRatings: query.csatRatings,
    timezone: query.timezone,
    assumedBefore: new Date(ctx.clock.now().getTime() - ctx.config.assumedResolutionHours * 3600_000),
  };
  const previous: AnalyticsFilter = { ...filter, start: new Date(start.getTime() - length), end: start };
  // Two scans, in parallel where the database can (the window, and the comparison window's days and folders).
  const [{ days, channels, hours, folders, rules, reasons }, { days: previousDays, folders: previousFolders }] = await Promise.all([
    analyticsCounts(ctx.db, ctx.workspaceId, filter),
    analyticsCounts(ctx.db, ctx.workspaceId, previous, true),
  ]);
  const [titles, names] = await Promise.all([
    folderTitles(ctx, [...new Set([...folders, ...previousFolders].map((f) => f.folderId))]),
    ruleNames(ctx, rules.map((r) => r.ruleId)),
  ]);

  const summary = summarize(days);
  const comparisonSummary = summarize(previousDays);
  const card = (key: keyof typeof summary) => ({ value: summary[key], comparisonValue: comparisonSummary[key], change: change(summary[key], comparisonSummary[key]) });
  const byDay = new Map(days.map((d) => [d.day, d]));
  const series = windowDays(start, end, query.timezone).map((date) => ({ date, row: byDay.get(date) }));
  const totals = days.reduce(
    (acc, d) => ({ unresolved: acc.unresolved + d.unresolved, noReply: acc.noReply + d.noReply }),
    { unresolved: 0, noReply: 0 },
  );
  const statusCounts: Record<string, number> = {
    'Waiting for Customer': summary.waitingForCustomerConversations,
    'Resolved by AI': summary.resolvedConversations,
    'Escalated to Human Agent': summary.escalatedConversations,
    Unresolved: totals.unresolved,
    'No Reply': totals.noReply,
  };
  const hourly = Array.from({ length: 7 }, () => new Array<number>(24).fill(0));
  for (const h of hours) hourly[h.dow]![h.hour] = h.count;
  const usage = (list: { folderId: string; conversations: number }[]) => list.map((f) => ({ folderId: f.folderId, folderTitle: titles.get(f.folderId) ?? '', conversations: f.conversations }));

  return {
    botId: agentId,
    startEpoch: Math.floor(start.getTime() / 1000),
    endEpoch: Math.floor(end.getTime() / 1000),
    timezone: query.timezone,
    summary,
    comparisonSummary,
    summaryCards: {
      conversationVolume: card('totalConversations'),
      aiResolutionRate: card('aiResolutionRate'),
      humanEscalationRate: card('humanEscalationRate'),
      averageResponseTime: card('averageResponseTimeMs'),
      averageCsatRating: card('averageCsatRating'),
    },
    statusBreakdown: CONVERSATION_STATUSES.map((status) => ({ status, count: statusCounts[status] ?? 0, percentage: rate(statusCounts[status] ?? 0, summary.totalConversations) })),
    usageByChannel: CHANNELS.map((channel) => {
      const found = channels.find((c) => c.channel === channel);
      return { channel, conversations: found?.conversations ?? 0, resolved: found?.resolved ?? 0 };
    }),
    conversationVolumeChartData: series.map(({ date, row }) => ({ date, resolved: (row?.confirmed ?? 0) + (row?.assumed ?? 0), escalated: row?.escalated ?? 0, waitingForCustomer: row?.waiting ?? 0 })),
    resolutionRateChartData: series.map(({ date, row }) => {
      const resolved = (row?.confirmed ?? 0) + (row?.assumed ?? 0);
      return { date, total: row?.total ?? 0, resolved, aiResolutionRate: rate(resolved, row?.total ?? 0) };
    }),
    responseTimeChartData: series.map(({ date, row }) => ({ date, averageFirstResponseTimeMs: mean(row?.firstResponseMs ?? 0, row?.firstResponses ?? 0) })),
    knowledgeUsage: { current: usage(folders), comparison: usage(previousFolders) },
    ruleAnalytics: rules.map((r) => ({
      ruleId: r.ruleId,
      ruleName: names.get(r.ruleId) ?? '(deleted rule)',
      conversations: r.conversations,
      resolved: r.resolved,
      escalated: r.escalated,
      resolutionRate: rate(r.resolved, r.conversations),
      escalationRate: rate(r.escalated, r.conversations),
      averageCsatRating: mean(r.ratingSum, r.ratings),
    })),
    escalationReasons: reasons.map((r) => ({ tagId: SYSTEM_TAG_IDS[r.reason as EscalationReason] ?? SYSTEM_TAG_IDS.other, tagName: r.reason, count: r.count })),
    hourlyVolume: hourly,
    csatChartData: series.map(({ date, row }) => ({
      date,
      ratings: row?.ratings ?? 0,
      averageCsatRating: mean(row?.ratingSum ?? 0, row?.ratings ?? 0),
      csatPercentage: rate(row?.goodRatings ?? 0, row?.ratings ?? 0),
    })),
  };
}
