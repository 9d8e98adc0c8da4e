import { CronExpressionParser } from 'cron-parser';
import { inTransaction, type WorkspaceContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { iso } from '../../http/schemas.js';
import { requireAgent } from '../agents/index.js';
import { pickCases, queueRun } from './runs.service.js';
import { deleteSchedule as deleteScheduleRow, findSchedule, type ScheduleRow, upsertSchedule } from './testing.repository.js';
import type { ScheduleBody } from './testing.schemas.js';

/**
 * An agent's scheduled test run (docs/testing.md): a cron expression in a time zone, kept as a row
 * and as a keyed pg-boss schedule of `testing.scheduled` (one per agent), which queues a run of
 * trigger `schedule`. The run's end compares it with the previous run on what is live and emits
 * `testrun.regressed` for the cases that passed then and fail now.
 */

type Ctx = WorkspaceContext;

const JOB = 'testing.scheduled';
const scheduleKey = (workspaceId: string, agentId: string) => `${workspaceId}/${agentId}`;

/** The next time a cron expression fires after `from`; 400 naming the field when it or the zone does not parse. */
export function nextFire(cron: string, timezone: string, from: Date): Date {
  try {
    new Intl.DateTimeFormat('en', { timeZone: timezone });
  } catch {
    throw new AppError('bad_request', `timezone: ${timezone} is not an IANA time zone`);
  }
  if (cron.trim().split(/\s+/).length !== 5) throw new AppError('bad_request', `cron: "${cron}" is not a five-field cron expression (minute hour day month weekday)`);
  try {
    return CronExpressionParser.parse(cron, { currentDate: from, tz: timezone }).next().toDate();
  } catch (error) {
    throw new AppError('bad_request', `cron: "${cron}" does not parse (${error instanceof Error ? error.message : String(error)})`);
  }
}

function present(ctx: Ctx, row: ScheduleRow) {
  return {
    botId: row.agentId,
    cron: row.cron,
    timezone: row.timezone,
    k: row.k,
    tags: row.tags,
    nextRunAt: iso(nextFire(row.cron, row.timezone, ctx.clock.now())),
    updatedAt: iso(row.updatedAt),
  };
}

export async function getSchedule(ctx: Ctx, agentId: string) {
  await requireAgent(ctx, agentId);
  const row = await findSchedule(ctx.db, ctx.workspaceId, agentId);
  return row ? present(ctx, row) : null;
}

export async function putSchedule(ctx: Ctx, agentId: string, body: ScheduleBody) {
  await requireAgent(ctx, agentId);
  nextFire(body.cron, body.timezone, ctx.clock.now());
  const now = ctx.clock.now();
  // The row commits (with its audit entry) before pg-boss, on its own connection, keys the schedule.
  const row = await inTransaction(ctx, (tx) => upsertSchedule(tx.db, ctx.workspaceId, { agentId, cron: body.cron, timezone: body.timezone, k: body.k, tags: body.tags, createdAt: now, updatedAt: now }));
  await ctx.queue.scheduleFor(JOB, scheduleKey(ctx.workspaceId, agentId), body.cron, { workspaceId: ctx.workspaceId, agentId }, { tz: body.timezone });
  return present(ctx, row);
}

export async function deleteSchedule(ctx: Ctx, agentId: string): Promise<{ success: true }> {
  await requireAgent(ctx, agentId);
  if (!(await inTransaction(ctx, (tx) => deleteScheduleRow(tx.db, ctx.workspaceId, agentId)))) throw new AppError('not_found', 'the agent has no test schedule');
  await ctx.queue.unscheduleFor(JOB, scheduleKey(ctx.workspaceId, agentId));
  return { success: true };
}

/**
 * The schedule fired: queues a run of the agent's cases, unless its schedule is gone (the pg-boss
 * schedule outlived it: removed now) or the agent has no cases left to run.
 */
export async function runScheduled(ctx: Ctx, agentId: string): Promise<void> {
  const schedule = await findSchedule(ctx.db, ctx.workspaceId, agentId);
  if (!schedule) {
    await ctx.queue.unscheduleFor(JOB, scheduleKey(ctx.workspaceId, agentId));
    return;
  }
  const cases = await pickCases(ctx, agentId, schedule.tags.length ? { tags: schedule.tags } : {}).catch((error: unknown) => {
    if (error instanceof AppError && error.code === 'bad_request') return null;
    throw error;
  });
  if (!cases) {
    ctx.log.info({ agentId }, 'scheduled test run skipped: the agent has no test cases to run');
    return;
  }
  await queueRun(ctx, agentId, cases, { k: schedule.k, trigger: 'schedule', overlay: null });
}
