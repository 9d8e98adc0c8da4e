import { z } from 'zod';
import { contextForJob } from '../../context.js';
import { defineJob, definePurgeJob, registered, type RegisteredJob } from '../../jobs/job.js';
import { purgeFinishedDeliveries, runDelivery } from './delivery.service.js';

/**
 * One attempt to deliver a webhook message (delivery.service.ts). The retry schedule of failed
 * deliveries is the service's (each attempt queues the next); the queue's own retries only cover a
 * worker that died mid-attempt, which the service's attempt counter makes harmless.
 */
export const deliverWebhookJob = defineJob({
  name: 'webhooks.deliver',
  payload: z.object({ workspaceId: z.uuid(), deliveryId: z.uuid(), attempt: z.int().min(1) }).strict(),
  // Deliveries mostly wait on receivers: more at once than other jobs keeps a burst from queueing up.
  concurrency: (config) => config.webhooks.concurrency,
  options: (config) => ({ retryLimit: 3, retryDelaySeconds: 5, expireInSeconds: Math.ceil(config.webhooks.timeoutMs / 1000) + 60 }),
  handler: (run, { workspaceId, deliveryId, attempt }) => runDelivery(contextForJob(run, workspaceId), deliveryId, attempt),
});

/** Hourly housekeeping: deletes finished deliveries older than PARLEY_WEBHOOK_RETENTION_DAYS. */
export const purgeDeliveriesJob = definePurgeJob('webhooks.purge', {
  schedule: '47 * * * *',
  expireInSeconds: 600,
  what: 'old webhook deliveries',
  purge: purgeFinishedDeliveries,
});

/** The jobs of this module, for the registry. */
export const webhookJobs: readonly RegisteredJob[] = [registered(deliverWebhookJob), registered(purgeDeliveriesJob)];
