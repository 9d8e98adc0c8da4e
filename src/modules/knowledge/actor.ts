import { authorOf, type WorkspaceContext } from '../../context.js';

/** The creation and last-change stamps of a row the context's actor creates at `now`. */
export function authored(ctx: Pick<WorkspaceContext, 'actor' | 'clock'>, now: Date = ctx.clock.now()) {
  const by = authorOf(ctx);
  return { createdAt: now, updatedAt: now, createdBy: by, updatedBy: by };
}
