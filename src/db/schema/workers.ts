import { integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** What a worker runs at once and how long each attempt may hold its job, by queue. */
export type WorkerQueues = Record<string, { concurrency: number; leaseSeconds: number }>;

/** A job a worker is running: enough to fence a takeover to this attempt and to name its record. */
export interface RunningJob {
  job: string;
  jobId: string;
  retryCount: number;
  record: unknown;
  startedAt: string;
}

/**
 * The job workers of a deployment, one row per live process that works jobs (not per workspace:
 * operators read it through the admin API). A worker writes its row when it starts, refreshes
 * `last_seen_at` and `running` every heartbeat, and deletes it when it stops; a row not refreshed
 * within the worker timeout is a dead worker, whose jobs a live one takes over (src/jobs/fleet.ts).
 */
export const jobWorkers = pgTable('job_workers', {
  id: uuid('id').primaryKey(),
  host: text('host').notNull(),
  pid: integer('pid').notNull(),
  version: text('version').notNull(),
  queues: jsonb('queues').$type<WorkerQueues>().notNull(),
  running: jsonb('running').$type<RunningJob[]>().notNull().default([]),
  startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
