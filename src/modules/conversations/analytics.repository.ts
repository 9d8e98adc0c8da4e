import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { queryRows } from '../../db/sql.js';

/**
 * The reading query of agent analytics (docs/analytics.md): one scan of the agent's live
 * conversations created in a window, with the filters, through the index on
 * (workspace_id, agent_id, created_at); every breakdown is aggregated from that one scan. Days and
 * hours are grouped in the requested time zone.
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

export interface FolderRow {
  folderId: string;
  conversations: number;
}

export interface RuleRow {
  ruleId: string;
  conversations: number;
  resolved: number;
  escalated: number;
  ratings: number;
  ratingSum: number;
}

export interface AnalyticsCounts {
  /** Per local day of the window (only days with conversations). */
  days: DayRow[];
  /** Conversations and resolutions (confirmed or assumed) per channel. */
  channels: { channel: string; conversations: number; resolved: number }[];
  /** Conversations per local weekday (0 = Sunday) and hour. */
  hours: { dow: number; hour: number; count: number }[];
  /** Conversations per folder that held a used article. */
  folders: FolderRow[];
  /** Per rule that ran: conversations, resolutions, escalations and their CSAT ratings. */
  rules: RuleRow[];
  /** Escalated conversations per hand-over reason. */
  reasons: { reason: string; count: number }[];
}

/** The sum of a row's CSAT ratings, and how many are 4 or 5 (most rows have none: no subquery then). */
const ratingSum = sql.raw('CASE WHEN cardinality(csat_ratings) = 0 THEN 0 ELSE (SELECT sum(r) FROM unnest(csat_ratings) r) END');
const goodRatings = sql.raw('CASE WHEN cardinality(csat_ratings) = 0 THEN 0 ELSE (SELECT count(*) FROM unnest(csat_ratings) r WHERE r >= 4) END');

/**
 * The counts of one window from one scan of the conversations created in it (materialised once,
 * narrow columns). `comparison`: only what the comparison window needs (days and folders).
 */
export async function analyticsCounts(db: Db, workspaceId: string, f: AnalyticsFilter, comparison = false): Promise<AnalyticsCounts> {
  const none = sql.raw('NULL::json');
  const rows = await queryRows<Record<keyof AnalyticsCounts, unknown[] | null>>(
    db,
    sql`WITH w AS MATERIALIZED (
      SELECT c.created_at AT TIME ZONE ${f.timezone} AS local,
        c.status, c.channel, c.reply_count, c.response_ms_total, c.first_response_ms, c.csat_ratings,
        c.subfolder_ids, c.rule_ids, c.escalation_reason,
        (c.status = 'Resolved by AI') AS confirmed,
        (c.status = 'Waiting for Customer' AND c.last_reply_at IS NOT NULL AND c.last_reply_at <= ${f.assumedBefore.toISOString()}::timestamptz) AS assumed,
        (c.status = 'Escalated to Human Agent') AS escalated
      FROM conversations c WHERE ${where(workspaceId, f)}
    ),
    days AS (
      SELECT to_char(local::date, 'YYYY-MM-DD') AS day, count(*) AS total,
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
        coalesce(sum(${ratingSum}), 0) AS "ratingSum",
        coalesce(sum(${goodRatings}), 0) AS "goodRatings"
      FROM w GROUP BY local::date
    ),
    folders AS (
      SELECT u.folder_id AS "folderId", count(*) AS conversations
      FROM w, unnest(w.subfolder_ids) AS u(folder_id) GROUP BY u.folder_id
    )
    SELECT
      (SELECT json_agg(d ORDER BY d.day) FROM days d) AS days,
      (SELECT json_agg(x ORDER BY x.conversations DESC, x."folderId") FROM folders x) AS folders,
      ${
        comparison
          ? sql`${none} AS channels, ${none} AS hours, ${none} AS rules, ${none} AS reasons`
          : sql`(SELECT json_agg(x) FROM (
              SELECT channel, count(*) AS conversations, count(*) FILTER (WHERE confirmed OR assumed) AS resolved FROM w GROUP BY channel
            ) x) AS channels,
            (SELECT json_agg(x) FROM (
              SELECT extract(dow FROM local)::int AS dow, extract(hour FROM local)::int AS hour, count(*) AS count FROM w GROUP BY 1, 2
            ) x) AS hours,
            (SELECT json_agg(x ORDER BY x.conversations DESC, x."ruleId") FROM (
              SELECT u.rule_id AS "ruleId", count(*) AS conversations,
                count(*) FILTER (WHERE confirmed OR assumed) AS resolved,
                count(*) FILTER (WHERE escalated) AS escalated,
                coalesce(sum(cardinality(csat_ratings)), 0) AS ratings,
                coalesce(sum(${ratingSum}), 0) AS "ratingSum"
              FROM w, unnest(w.rule_ids) AS u(rule_id) GROUP BY u.rule_id
            ) x) AS rules,
            (SELECT json_agg(x ORDER BY x.count DESC, x.reason) FROM (
              SELECT coalesce(escalation_reason, 'other') AS reason, count(*) AS count FROM w WHERE escalated GROUP BY 1
            ) x) AS reasons`
      }`,
  );
  const row = rows[0]!;
  const list = <T>(key: keyof AnalyticsCounts) => (typeof row[key] === 'string' ? JSON.parse(row[key] as unknown as string) : (row[key] ?? [])) as T[];
  const numbers = <T extends object>(items: Record<string, unknown>[], keep: string[]) =>
    items.map((item) => Object.fromEntries(Object.entries(item).map(([k, v]) => [k, keep.includes(k) ? v : Number(v)])) as T);
  return {
    days: numbers<DayRow>(list('days'), ['day']),
    channels: numbers(list('channels'), ['channel']),
    hours: numbers(list('hours'), []),
    folders: numbers<FolderRow>(list('folders'), ['folderId']),
    rules: numbers<RuleRow>(list('rules'), ['ruleId']),
    reasons: numbers(list('reasons'), ['reason']),
  };
}
