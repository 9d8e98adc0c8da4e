import { defineListener, registeredListener } from '../../events/bus.js';
import { queueSyncedSourceGeneration } from './knowledge-jobs.service.js';

/**
 * Knowledge follows its sources on their schedule: a scheduled re-sync that found a change on a
 * source linked to knowledge queues the job that drafts the update, in the same transaction.
 */
export const generationListeners = [
  registeredListener(
    defineListener({
      name: 'generation.regenerate-synced-source',
      event: 'source.synced',
      phase: 'transaction',
      handle: async (ctx, { sourceId, status, foundChange }) => {
        if (status !== 'COMPLETED' || !foundChange) return;
        const jobId = await queueSyncedSourceGeneration(ctx, sourceId);
        ctx.log.info({ sourceId, knowledgeJobId: jobId }, 'scheduled re-sync found a change: knowledge job queued');
      },
    }),
  ),
];
