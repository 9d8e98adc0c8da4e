import { defineListener, registeredListener } from '../../events/bus.js';
import { markStarted } from './visitors.repository.js';

/**
 * A widget conversation is started in the transaction that writes its conversation row (the
 * visitor's first message): no reader, such as a stream this process wakes right after that
 * commit, finds the conversation written and its widget row not yet started. Conversations not
 * started through a widget have no widget row: the update changes nothing.
 */
export const widgetListeners = [
  registeredListener(
    defineListener({
      name: 'widget.mark-started',
      event: 'conversation.created',
      phase: 'transaction',
      handle: async (ctx, { conversationId }) => markStarted(ctx.db, ctx.workspaceId, conversationId, ctx.clock.now()),
    }),
  ),
];
