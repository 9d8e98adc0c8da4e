import { authorOf, type WorkspaceContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import {
  type AgentRow,
  type AgentWithPrompts,
  unscopedAgentExists,
  findAgent,
  insertAgent,
  listAgents as listAgentRows,
  renameAgent as renameAgentRow,
  softDeleteAgent,
} from './agents.repository.js';

export async function listAgents(ctx: WorkspaceContext): Promise<AgentWithPrompts[]> {
  return listAgentRows(ctx.db, ctx.workspaceId);
}

export async function createAgent(ctx: WorkspaceContext, name: string): Promise<AgentWithPrompts> {
  const row = await insertAgent(ctx.db, ctx.workspaceId, name, authorOf(ctx), ctx.clock.now());
  return { ...row, prompts: null };
}

export async function renameAgent(ctx: WorkspaceContext, id: string, name: string): Promise<AgentWithPrompts> {
  const row = await renameAgentRow(ctx.db, ctx.workspaceId, id, name, authorOf(ctx), ctx.clock.now());
  if (!row) throw agentNotFound();
  const agent = await findAgent(ctx.db, ctx.workspaceId, id);
  if (!agent) throw agentNotFound();
  return agent;
}

/** Soft delete: the agent leaves the listing; its prompts, versions and assignments are kept. */
export async function deleteAgent(ctx: WorkspaceContext, id: string): Promise<void> {
  if (!(await softDeleteAgent(ctx.db, ctx.workspaceId, id, authorOf(ctx), ctx.clock.now()))) throw agentNotFound();
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

function agentNotFound(): AppError {
  return new AppError('not_found', 'agent not found');
}

export type { AgentRow };
