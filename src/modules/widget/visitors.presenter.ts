import { iso } from '../../http/schemas.js';
import type { EventRow } from '../conversations/index.js';

/** Whether a visitor sees an event: messages do, the team's internal comments never. */
export function visibleToVisitor(row: EventRow): boolean {
  return row.type === 'message';
}

/** An event as the visitor sees it: the words and who said them, none of the team's data (trace, tags, sentiment). */
export function presentVisitorEvent(row: EventRow) {
  return {
    id: row.id,
    interactionId: row.conversationId,
    role: row.role as 'user',
    message: row.message,
    createdAt: iso(row.createdAt),
    handover: row.handover,
    csatRating: row.csatRating,
    resolved: row.resolved,
  };
}

/** The events of a list a visitor sees, as the visitor sees them. */
export function presentVisitorEvents(rows: readonly EventRow[]) {
  return rows.filter(visibleToVisitor).map(presentVisitorEvent);
}
