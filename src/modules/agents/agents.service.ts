import { authorOf, inTransaction, type WorkspaceContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import {
  type AgentRow,
  type AgentWithPrompts,
  unscopedAgentExists,
  existingAgentIds as existingAgentIdRows,
  findAgent,
  isDeletedAgent,
  insertAgent,
  listAgents as listAgentRows,
  renameAgent as renameAgentRow,
  softDeleteAgent,
} from './agents.repository.js';

export async function listAgents(ctx: WorkspaceContext): Promise<AgentWithPrompts[]> {
  return listAgentRows(ctx.db, ctx.workspaceId);
}

export async function createAgent(ctx: WorkspaceContext, name: string): Promise<AgentWithPrompts> {
  const row = await inTransaction(ctx, (tx) => insertAgent(tx.db, ctx.workspaceId, name, authorOf(ctx), ctx.clock.now()));
  return { ...row, prompts: null };
}

export async function renameAgent(ctx: WorkspaceContext, id: string, name: string): Promise<AgentWithPrompts> {
  const row = await inTransaction(ctx, (tx) => renameAgentRow(tx.db, ctx.workspaceId, id, name, authorOf(ctx), ctx.clock.now()));
  if (!row) throw agentNotFound();
  const agent = await findAgent(ctx.db, ctx.workspaceId, id);
  if (!agent) throw agentNotFound();
  return agent;
}

/** Soft delete: the agent leaves the listing; its prompts, versions and assignments are kept. */
export async function deleteAgent(ctx: WorkspaceContext, id: string): Promise<void> {
  if (!(await inTransaction(ctx, (tx) => softDeleteAgent(tx.db, ctx.workspaceId, id, authorOf(ctx), ctx.clock.now())))) throw agentNotFound();
}

/** A non-deleted agent of the workspace, or 404. */
export async function requireAgent(ctx: Pick<WorkspaceContext, 'db' | 'workspaceId'>, id: string): Promise<AgentWithPrompts> {
  const agent = await findAgent(ctx.db, ctx.workspaceId, id);
  if (!agent) throw agentNotFound();
  return agent;
}

/**
 * An agent for the prompt (and analytics) routes: 406 when the id names an agent of another
 * workspace, as the specification answers there, 404 when it names none.
 */
export async function requireAgentOrNotAcceptable(ctx: WorkspaceContext, id: string): Promise<AgentWithPrompts> {
  const agent = await findAgent(ctx.db, ctx.workspaceId, id);
  if (agent) return agent;
  if (await unscopedAgentExists(ctx.db, ctx.workspaceId, id)) {
    throw new AppError('not_acceptable', 'agent belongs to a different workspace');
  }
  throw agentNotFound();
}

/**
 * 400 naming the first entry of `ids` that is not an agent of the workspace (`field.<index>`);
 * answers the ids without repeats. For the routes that assign rules or guardrails to agents.
 */
export async function requireAgentIds(ctx: Pick<WorkspaceContext, 'db' | 'workspaceId'>, ids: readonly string[], field: string): Promise<string[]> {
  const unique = [...new Set(ids)];
  const found = await existingAgentIdRows(ctx.db, ctx.workspaceId, unique);
  const index = ids.findIndex((id) => !found.has(id));
  if (index >= 0) throw new AppError('bad_request', `${field}.${index}: agent ${ids[index]} does not exist in this workspace`);
  return unique;
}

/** The agents among `ids` that exist in the workspace. */
export async function existingAgentIds(ctx: Pick<WorkspaceContext, 'db' | 'workspaceId'>, ids: readonly string[]): Promise<Set<string>> {
  return existingAgentIdRows(ctx.db, ctx.workspaceId, ids);
}

function agentNotFound(): AppError {
  return new AppError('not_found', 'agent not found');
}

export type { AgentRow };

/** An agent that may answer customers: 404 when the workspace has none with this id, 400 when it was deleted. */
export async function requireAnsweringAgent(ctx: Pick<WorkspaceContext, 'db' | 'workspaceId'>, id: string, field = 'botId'): Promise<AgentWithPrompts> {
  const agent = await findAgent(ctx.db, ctx.workspaceId, id);
  if (agent) return agent;
  if (await isDeletedAgent(ctx.db, ctx.workspaceId, id)) throw new AppError('bad_request', `${field}: the agent ${id} was deleted and cannot answer`);
  throw agentNotFound();
}
