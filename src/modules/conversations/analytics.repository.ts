import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { queryRows } from '../../db/sql.js';

/**
 * The reading queries of agent analytics (docs/analytics.md). Each aggregates the agent's live
 * conversations created in a window, with the same filters, through the index on
 * (workspace_id, agent_id, created_at); days and hours are grouped in the requested time zone.
 */
export interface AnalyticsFilter {
  agentId: string;
  start: Date;
  end: Date;
  /** Undefined: every source. */
  sources?: string[];
  channels?: string[];
  statuses?: string[];
  sentiments?: string[];
  subfolderIds?: string[];
  tagIds?: string[];
  ruleIds?: string[];
  escalationReasonTagIds?: string[];
  csatRatings?: number[];
  timezone: string;
  /** Waiting for the customer since before this: resolved (assumed). */
  assumedBefore: Date;
}

const uuids = (ids: string[]) => sql`${`{${ids.join(',')}}`}::uuid[]`;

function where(workspaceId: string, f: AnalyticsFilter): SQL {
  const parts: SQL[] = [
    sql`c.workspace_id = ${workspaceId}`,
    sql`c.agent_id = ${f.agentId}`,
    sql`c.deleted_at IS NULL`,
    sql`c.created_at >= ${f.start.toISOString()}::timestamptz`,
    sql`c.created_at < ${f.end.toISOString()}::timestamptz`,
  ];
  const textIn = (column: string, values: string[] | undefined) => {
    if (values?.length) parts.push(sql`${sql.raw(column)} IN (${sql.join(values.map((v) => sql`${v}`), sql`, `)})`);
  };
  textIn('c.source', f.sources);
  textIn('c.channel', f.channels);
  textIn('c.status', f.statuses);
  textIn('c.latest_sentiment', f.sentiments);
  if (f.subfolderIds?.length) parts.push(sql`c.subfolder_ids && ${uuids(f.subfolderIds)}`);
  if (f.tagIds?.length) parts.push(sql`c.tag_ids && ${uuids(f.tagIds)}`);
  if (f.ruleIds?.length) parts.push(sql`c.rule_ids && ${uuids(f.ruleIds)}`);
  if (f.escalationReasonTagIds?.length) parts.push(sql`c.tag_ids && ${uuids(f.escalationReasonTagIds)}`);
  if (f.csatRatings?.length) parts.push(sql`c.csat_ratings && ${`{${f.csatRatings.join(',')}}`}::integer[]`);
  return sql.join(parts, sql` AND `);
}

/** The outcome columns every count reads: confirmed and assumed resolution, escalation, waiting. */
const outcome = (f: AnalyticsFilter) => sql`
  (c.status = 'Resolved by AI') AS confirmed,
  (c.status = 'Waiting for Customer' AND c.last_reply_at IS NOT NULL AND c.last_reply_at <= ${f.assumedBefore.toISOString()}::timestamptz) AS assumed,
  (c.status = 'Escalated to Human Agent') AS escalated`;

export interface DayRow {
  day: string;
  total: number;
  confirmed: number;
  assumed: number;
  escalated: number;
  waiting: number;
  unresolved: number;
  noReply: number;
  replies: number;
  responseMs: number;
  firstResponses: number;
  firstResponseMs: number;
  ratings: number;
  ratingSum: number;
  goodRatings: number;
}

/** Counts per local day (only days with conversations). */
export async function dailyCounts(db: Db, workspaceId: string, f: AnalyticsFilter): Promise<DayRow[]> {
  const rows = await queryRows<Record<keyof DayRow, string | number>>(
    db,
    sql`WITH w AS (
      SELECT (c.created_at AT TIME ZONE ${f.timezone})::date AS day, c.status, c.reply_count, c.response_ms_total,
        c.first_response_ms, c.csat_ratings, ${outcome(f)}
      FROM conversations c WHERE ${where(workspaceId, f)}
    )
    SELECT to_char(day, 'YYYY-MM-DD') AS day, count(*) AS total,
      count(*) FILTER (WHERE confirmed) AS confirmed,
      count(*) FILTER (WHERE assumed) AS assumed,
      count(*) FILTER (WHERE escalated) AS escalated,
      count(*) FILTER (WHERE status = 'Waiting for Customer' AND NOT assumed) AS waiting,
      count(*) FILTER (WHERE status = 'Unresolved') AS unresolved,
      count(*) FILTER (WHERE status = 'No Reply') AS "noReply",
      coalesce(sum(reply_count), 0) AS replies,
      coalesce(sum(response_ms_total), 0) AS "responseMs",
      count(first_response_ms) AS "firstResponses",
      coalesce(sum(first_response_ms), 0) AS "firstResponseMs",
      coalesce(sum(cardinality(csat_ratings)), 0) AS ratings,
      coalesce(sum((SELECT sum(r) FROM unnest(csat_ratings) r)), 0) AS "ratingSum",
      coalesce(sum((SELECT count(*) FROM unnest(csat_ratings) r WHERE r >= 4)), 0) AS "goodRatings"
    FROM w GROUP BY day ORDER BY day`,
  );
  return rows.map((r) => {
    const out = { day: String(r.day) } as DayRow;
    for (const [k, v] of Object.entries(r)) if (k !== 'day') (out as unknown as Record<string, number>)[k] = Number(v);
    return out;
  });
}

/** Conversations and resolutions (confirmed or assumed) per channel. */
export async function channelCounts(db: Db, workspaceId: string, f: AnalyticsFilter): Promise<{ channel: string; conversations: number; resolved: number }[]> {
  const rows = await queryRows<{ channel: string; conversations: string; resolved: string }>(
    db,
    sql`WITH w AS (SELECT c.channel, ${outcome(f)} FROM conversations c WHERE ${where(workspaceId, f)})
    SELECT channel, count(*) AS conversations, count(*) FILTER (WHERE confirmed OR assumed) AS resolved FROM w GROUP BY channel`,
  );
  return rows.map((r) => ({ channel: r.channel, conversations: Number(r.conversations), resolved: Number(r.resolved) }));
}

/** Conversations per local weekday (0 = Sunday) and hour. */
export async function hourlyCounts(db: Db, workspaceId: string, f: AnalyticsFilter): Promise<{ dow: number; hour: number; count: number }[]> {
  const rows = await queryRows<{ dow: string; hour: string; count: string }>(
    db,
    sql`WITH w AS (SELECT c.created_at AT TIME ZONE ${f.timezone} AS local FROM conversations c WHERE ${where(workspaceId, f)})
    SELECT extract(dow FROM local)::int AS dow, extract(hour FROM local)::int AS hour, count(*) AS count FROM w GROUP BY 1, 2`,
  );
  return rows.map((r) => ({ dow: Number(r.dow), hour: Number(r.hour), count: Number(r.count) }));
}

/** Conversations per folder that held a used article. */
export async function folderCounts(db: Db, workspaceId: string, f: AnalyticsFilter): Promise<{ folderId: string; conversations: number }[]> {
  const rows = await queryRows<{ folderId: string; conversations: string }>(
    db,
    sql`SELECT u.folder_id AS "folderId", count(*) AS conversations
    FROM conversations c, unnest(c.subfolder_ids) AS u(folder_id) WHERE ${where(workspaceId, f)}
    GROUP BY u.folder_id ORDER BY count(*) DESC, u.folder_id`,
  );
  return rows.map((r) => ({ folderId: r.folderId, conversations: Number(r.conversations) }));
}

/** Per rule that ran: conversations, resolutions, escalations and their CSAT ratings. */
export async function ruleCounts(
  db: Db,
  workspaceId: string,
  f: AnalyticsFilter,
): Promise<{ ruleId: string; conversations: number; resolved: number; escalated: number; ratings: number; ratingSum: number }[]> {
  const rows = await queryRows<{ ruleId: string; conversations: string; resolved: string; escalated: string; ratings: string; ratingSum: string }>(
    db,
    sql`WITH w AS (SELECT c.rule_ids, c.csat_ratings, ${outcome(f)} FROM conversations c WHERE ${where(workspaceId, f)} AND cardinality(c.rule_ids) > 0)
    SELECT u.rule_id AS "ruleId", count(*) AS conversations,
      count(*) FILTER (WHERE confirmed OR assumed) AS resolved,
      count(*) FILTER (WHERE escalated) AS escalated,
      coalesce(sum(cardinality(csat_ratings)), 0) AS ratings,
      coalesce(sum((SELECT sum(r) FROM unnest(csat_ratings) r)), 0) AS "ratingSum"
    FROM w, unnest(w.rule_ids) AS u(rule_id)
    GROUP BY u.rule_id ORDER BY count(*) DESC, u.rule_id`,
  );
  return rows.map((r) => ({
    ruleId: r.ruleId,
    conversations: Number(r.conversations),
    resolved: Number(r.resolved),
    escalated: Number(r.escalated),
    ratings: Number(r.ratings),
    ratingSum: Number(r.ratingSum),
  }));
}

/** Escalated conversations per hand-over reason. */
export async function reasonCounts(db: Db, workspaceId: string, f: AnalyticsFilter): Promise<{ reason: string; count: number }[]> {
  const rows = await queryRows<{ reason: string; count: string }>(
    db,
    sql`SELECT coalesce(c.escalation_reason, 'other') AS reason, count(*) AS count
    FROM conversations c WHERE ${where(workspaceId, f)} AND c.status = 'Escalated to Human Agent'
    GROUP BY 1 ORDER BY count(*) DESC, 1`,
  );
  return rows.map((r) => ({ reason: r.reason, count: Number(r.count) }));
}
