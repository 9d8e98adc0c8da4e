/**
 * Parley's background jobs by name, each with its payload: what a service enqueues with
 * `enqueue(ctx, name, payload)` (context.ts) without importing the job's handler, as `DomainEvents`
 * does for events. A module defines the job (`defineJob` in its `*.jobs.ts`, whose payload schema
 * must parse to this type) and lists it in its index; `registry.ts` collects them.
 */
export interface JobPayloads {
  /** Hourly: deletes keys expired or revoked longer ago than the retention (api-keys). */
  'api-keys.purge': EmptyPayload;
  /** Hourly: purges conversations deleted longer ago than the retention (conversations). */
  'conversations.purge': EmptyPayload;
  /** Ingests one source; the queue job's id is the source's `linkedJobId` (sources). `sync`: a refresh its schedule queued. */
  'sources.ingest': { workspaceId: string; sourceId: string; kind: 'add' | 'refresh' | 'sync' };
  /** One run of a source's re-sync schedule (keyed by the source id; `cron` the expression it fired on) (sources). */
  'sources.sync': { workspaceId: string; sourceId: string; cron: string };
  /**
   * Brings re-sync schedules in line with the records: these sources, else those following a
   * provider connection's interval (`provider`), else those following the workspace's (sources).
   */
  'sources.sync-schedule': { workspaceId: string; sourceIds: string[] | null; provider: string | null };
  /** Every minute: fails source records whose ingestion job left the queue without a result. */
  'sources.sweep': EmptyPayload;
  /** Runs one knowledge-generation job; its id is the `knowledge_jobs` row's (generation). */
  'knowledge.generate': { workspaceId: string; jobId: string };
  /** Every minute: fails knowledge jobs whose queue job left the queue without a result. */
  'knowledge.sweep': EmptyPayload;
  /** Every minute: keeps article embeddings current when an embedding model is configured (knowledge). */
  'knowledge.embed': EmptyPayload;
  /** Runs one Refine with AI iteration; the queue job's id is the iteration's (refine). */
  'refine.iterate': { workspaceId: string; iterationId: string };
  /** Every minute: fails iterations whose queue job left the queue without a result. */
  'refine.sweep': EmptyPayload;
  /** Runs (or resumes) one test run; the queue job's id is the run's (testing). */
  'testing.run': { workspaceId: string; runId: string };
  /** Every minute: fails test runs whose queue job left the queue without a result (testing). */
  'testing.sweep': EmptyPayload;
  /** An agent's test schedule fired: queues a run of its cases (testing; a keyed pg-boss schedule per agent). */
  'testing.scheduled': { workspaceId: string; agentId: string };
  /** Every ten minutes: deletes ended rate-limit windows and expired politeness leases (system). */
  'system.limits-sweep': EmptyPayload;
  /** Hourly: deletes widget conversations never written in, older than the retention (widget). */
  'widget.purge': EmptyPayload;
  /** One attempt (1-based) to deliver a webhook message; the first attempt's job id is the delivery's (webhooks). */
  'webhooks.deliver': { workspaceId: string; deliveryId: string; attempt: number };
  /** Hourly: deletes finished webhook deliveries older than the retention (webhooks). */
  'webhooks.purge': EmptyPayload;
  /** Hourly: deletes audit log entries older than PARLEY_AUDIT_RETENTION_DAYS (audit). */
  'audit.purge': EmptyPayload;
}

/** The payload of a scheduled job, which runs with an empty object. */
export type EmptyPayload = Record<string, never>;

export type JobName = keyof JobPayloads;
