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
  /** A draft is about to be published (emitted outside a transaction; the test gate may refuse it). */
  'publish.requested': PublishRequest;
  /** A test run finished and a case that passed in the previous run on what is live fails now. */
  'testrun.regressed': { runId: string; agentId: string; previousRunId: string; caseIds: string[]; trigger: string };
  /** A Refine with AI iteration finished with changes ready to review and publish. */
  'refine.iteration.ready': { sessionId: string; iterationId: string; conversationId: string; targetEventId: string };
}

export type EventName = keyof DomainEvents;

/** Drafts a publish puts live, by kind (ids), as the test gate reads them. */
export interface PublishDrafts {
  promptDrafts: { agentId: string; draftId: string }[];
  articleDraftIds: string[];
  /** Draft rules (published for the first time). */
  ruleDraftIds: string[];
  /** Refine with AI's proposed versions of published rules (`rule_drafts`). */
  ruleVersionDraftIds: string[];
}

/** What the test gate found: its runs (one per agent with test cases), the cases the change breaks, and whether it went on anyway. */
export interface GateOutcome {
  runIds: string[];
  regressedCaseIds: string[];
  forced: boolean;
}

/**
 * A publish about to happen, before its transaction (docs/testing.md). The test gate's listener
 * runs the test cases of every agent the change reaches with the drafts overlaid, writes what it
 * found into `outcome`, and throws 409 when a case that passes on what is live fails with the
 * drafts, unless `force`.
 */
export interface PublishRequest {
  change: { kind: 'prompt_draft' | 'article_draft' | 'rule_draft' | 'fix_iteration'; id: string };
  /** The agents the change reaches as the publisher knows them; the gate adds those whose folders hold the article drafts. */
  agentIds: string[];
  drafts: PublishDrafts;
  force: boolean;
  outcome: GateOutcome;
}

/** A `publish.requested` of one change, its outcome still empty. */
export function publishRequest(change: PublishRequest['change'], agentIds: string[], drafts: Partial<PublishDrafts>, force: boolean): PublishRequest {
  return {
    change,
    agentIds,
    drafts: { promptDrafts: [], articleDraftIds: [], ruleDraftIds: [], ruleVersionDraftIds: [], ...drafts },
    force,
    outcome: { runIds: [], regressedCaseIds: [], forced: false },
  };
}
