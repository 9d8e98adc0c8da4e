import { defineListener, registeredListener } from '../../events/bus.js';
import { relinkKnowledge, unlinkKnowledge } from './sources.repository.js';
import { rescheduleFollowers } from './sync.service.js';

/**
 * Sources follow the knowledge made from them, in the transaction that changes it: a deleted
 * article unlinks its sources (the foreign key on `linked_knowledge_id` is checked at commit, so a
 * delete without this would fail), and a published draft hands its sources to the live article.
 * A changed default re-sync interval (the workspace's, a connection's) queues the rescheduling of
 * the sources that follow it, with the change.
 */
export const sourceListeners = [
  registeredListener(
    defineListener({
      name: 'sources.unlink-deleted-knowledge',
      event: 'article.deleted',
      phase: 'transaction',
      handle: (ctx, { articleIds }) => unlinkKnowledge(ctx.db, ctx.workspaceId, articleIds, ctx.clock.now()),
    }),
  ),
  registeredListener(
    defineListener({
      name: 'sources.follow-published-draft',
      event: 'article.published',
      phase: 'transaction',
      handle: async (ctx, { articleId, draftId }) => {
        if (articleId !== draftId) await relinkKnowledge(ctx.db, ctx.workspaceId, draftId, articleId, ctx.clock.now());
      },
    }),
  ),
  registeredListener(
    defineListener({
      name: 'sources.follow-workspace-sync',
      event: 'workspace.source-sync-changed',
      phase: 'transaction',
      handle: (ctx) => rescheduleFollowers(ctx, null),
    }),
  ),
  registeredListener(
    defineListener({
      name: 'sources.follow-connection-sync',
      event: 'provider.source-sync-changed',
      phase: 'transaction',
      handle: (ctx, { provider }) => rescheduleFollowers(ctx, provider),
    }),
  ),
];
