/**
 * Parley's domain events: what happened, in a module's own words, for modules that should not be
 * known by the writer. Each name maps to its payload; the workspace and the actor travel on the
 * context the event is emitted with.
 */
export interface DomainEvents {
  /**
   * A draft was published. `draftId` is the draft row; `articleId` is the live article that now
   * holds its content (the draft itself when it had no live article).
   */
  'article.published': { articleId: string; draftId: string; version: number };
  /** Articles were deleted (with their history), by an article delete or a folder cascade. */
  'article.deleted': { articleIds: string[] };
  /** A source's ingestion job ended (`status` COMPLETED or FAILED). */
  'source.ingested': { sourceId: string; status: 'COMPLETED' | 'FAILED'; changed: boolean };
  /** A knowledge-generation job ended. */
  'knowledge.generated': { jobId: string; status: 'COMPLETED' | 'FAILED'; operation: string | null; articleId: string | null };
  /** An action or attribute is being deleted (emitted before the row goes, in the same transaction). */
  'action.deleted': { toolId: string; name: string };
  /** A conversation the human team held after a hand-over was given back to the agent. */
  'conversation.released': { conversationId: string };
}

export type EventName = keyof DomainEvents;
