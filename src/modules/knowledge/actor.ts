import type { RequestContext } from '../../context.js';

/** Who changes knowledge: a request's key, or a job acting for the key that queued it. */
export type KnowledgeActor = Pick<RequestContext, 'db' | 'clock' | 'workspaceId' | 'apiKeyId'>;

/** The creation and last-change stamps of a row the actor creates at `now`. */
export function authored(actor: KnowledgeActor, now: Date = actor.clock.now()) {
  return { createdAt: now, updatedAt: now, createdBy: actor.apiKeyId, updatedBy: actor.apiKeyId };
}
