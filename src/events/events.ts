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
  /**
   * A refresh the source's schedule queued ended (besides its `source.ingested`): `foundChange`
   * when it changed the content of a source linked to knowledge, which is now flagged `changed`.
   */
  'source.synced': { sourceId: string; status: 'COMPLETED' | 'FAILED'; foundChange: boolean };
  /** The workspace's default re-sync recurrence of its sources changed (workspaces). */
  'workspace.source-sync-changed': { interval: string };
  /** A provider connection's re-sync recurrence of its sources changed, or the connection went (`null`: none). */
  'provider.source-sync-changed': { provider: string; interval: string | null };
  /** A knowledge-generation job ended. */
  'knowledge.generated': { jobId: string; status: 'COMPLETED' | 'FAILED'; operation: string | null; articleId: string | null };
  /** An action or attribute is being deleted (emitted before the row goes, in the same transaction). */
  'action.deleted': { toolId: string; name: string };
  /** A conversation's first event was stored (`source`: `api`, `replay`, `testsuite`, ...). */
  'conversation.created': { conversationId: string; agentId: string; source: string; channel: string };
  /** The agent replied to a customer's message with an answer (not a hand-over). */
  'conversation.answered': { conversationId: string; agentId: string; source: string; eventId: string; userEventId: string };
  /** The agent handed the conversation over to a person; `reason` is an Escalation Reason tag name. */
  'conversation.escalated': { conversationId: string; agentId: string; source: string; eventId: string; reason: string };
  /** Feedback was given on an agent reply (the fields given, as they are now). */
  'conversation.feedback': {
    conversationId: string;
    agentId: string;
    source: string;
    eventId: string;
    csatRating: number | null;
    feedback: string | null;
    resolved: boolean | null;
    approved: boolean | null;
  };
  /**
   * A conversation's messages or state were written: a message stored (answered or not, with its
   * reply), a release, feedback. Emitted with the more specific events, for whoever follows a
   * conversation as it goes (the widget's open streams of this process).
   */
  'conversation.changed': { conversationId: string };
  /** A person handed a taken-over conversation back to the agent. */
  'conversation.released': { conversationId: string };
  /** A Refine with AI iteration finished with changes ready to review and publish. */
  'refine.iteration.ready': { sessionId: string; iterationId: string; conversationId: string; targetEventId: string };
}

export type EventName = keyof DomainEvents;
