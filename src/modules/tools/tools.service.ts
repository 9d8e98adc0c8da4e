import { authorOf, emit, inTransaction, type WorkspaceContext } from '../../context.js';
import { concurrentQueries } from '../../db/database.js';
import type { ToolInputField, ToolOutputField } from '../../db/schema/index.js';
import { AppError } from '../../http/errors.js';
import { requireAgent, requireAgentIds } from '../agents/index.js';
import { runChain, type ToolRunResult } from './engine.service.js';
import {
  addToolAgents,
  type DataStepRow,
  deleteTool as deleteToolRow,
  findTool,
  insertTool,
  listTools as listToolRows,
  listToolSteps,
  removeToolAgents,
  type ToolWithAgents,
  updateTool as updateToolRow,
} from './tools.repository.js';

type Ctx = WorkspaceContext;

const notFound = () => new AppError('not_found', 'action or attribute not found');

async function requireTool(ctx: Pick<Ctx, 'db' | 'workspaceId'>, id: string, lock = false): Promise<ToolWithAgents> {
  const tool = await findTool(ctx.db, ctx.workspaceId, id, { lock });
  if (!tool) throw notFound();
  return tool;
}

export async function listTools(ctx: Ctx, query: { alwaysGet?: boolean; botId?: string }): Promise<ToolWithAgents[]> {
  if (query.botId) await requireAgent(ctx, query.botId);
  return listToolRows(ctx.db, ctx.workspaceId, { alwaysGet: query.alwaysGet, agentId: query.botId });
}

export async function getTool(ctx: Ctx, id: string): Promise<{ tool: ToolWithAgents; steps: DataStepRow[] }> {
  const tool = await requireTool(ctx, id);
  return { tool, steps: await listToolSteps(ctx.db, ctx.workspaceId, id) };
}

export async function createTool(ctx: Ctx, body: { name: string; description: string; alwaysGet: boolean; source: string }): Promise<ToolWithAgents> {
  const row = await inTransaction(ctx, (tx) => insertTool(tx.db, ctx.workspaceId, body, authorOf(ctx), ctx.clock.now()));
  return { ...row, botIds: [] };
}

export async function updateTool(
  ctx: Ctx,
  id: string,
  changes: { name?: string; description?: string; inputFields?: ToolInputField[]; outputFields?: ToolOutputField[] },
): Promise<ToolWithAgents> {
  return inTransaction(ctx, async (tx) => {
    await requireTool(tx, id, true);
    await updateToolRow(tx.db, ctx.workspaceId, id, changes, authorOf(ctx), ctx.clock.now());
    return requireTool(tx, id);
  });
}

/**
 * Deletes an action or attribute with its steps. Emits `action.deleted` in the transaction: the
 * rules module refuses (409, naming the rules) while an intent rule's flow calls it.
 */
export async function deleteTool(ctx: Ctx, id: string): Promise<ToolWithAgents> {
  return inTransaction(ctx, async (tx) => {
    const tool = await requireTool(tx, id, true);
    await emit(tx, 'action.deleted', { toolId: id, name: tool.name });
    await deleteToolRow(tx.db, ctx.workspaceId, id);
    return tool;
  });
}

/** Adds or removes agents; every id must be an agent of the workspace (400 naming it). */
export async function assignTool(ctx: Ctx, id: string, body: { botIds: string[]; action: 'ADD' | 'DELETE' }): Promise<ToolWithAgents> {
  return inTransaction(ctx, async (tx) => {
    await requireTool(tx, id, true);
    const agentIds = await requireAgentIds(tx, body.botIds, 'body.botIds');
    if (body.action === 'ADD') await addToolAgents(tx.db, ctx.workspaceId, id, agentIds);
    else await removeToolAgents(tx.db, ctx.workspaceId, id, agentIds);
    return requireTool(tx, id);
  });
}

/** The ids among `ids` that name an action (not an attribute) of the workspace: what rule flows may call. */
export async function existingActionIds(ctx: Pick<Ctx, 'db' | 'workspaceId'>, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  return new Set((await listToolRows(ctx.db, ctx.workspaceId, { alwaysGet: false, ids })).map((t) => t.id));
}

/** The workspace's actions, for drafting rule flows. */
export async function actionsForDrafting(ctx: Pick<Ctx, 'db' | 'workspaceId'>): Promise<{ id: string; name: string; description: string; inputNames: string[] }[]> {
  return (await listToolRows(ctx.db, ctx.workspaceId, { alwaysGet: false })).map((t) => ({
    id: t.id,
    name: t.name,
    description: t.description,
    inputNames: t.inputFields.map((f) => f.name),
  }));
}

/** Runs an action's or attribute's chain with `inputs` against the real APIs (the test route, the pipeline). */
export async function runTool(ctx: Ctx, id: string, inputs: Record<string, unknown>): Promise<ToolRunResult & { toolName: string }> {
  const tool = await requireTool(ctx, id);
  const steps = await listToolSteps(ctx.db, ctx.workspaceId, id);
  return { toolName: tool.name, ...(await runChain(ctx, tool, steps, inputs)) };
}

/**
 * What the answer pipeline and rule flows call (`ActionRunner`): runs one action of the workspace
 * and records its calls for the trace.
 */
export interface ActionRunner {
  run(ctx: Ctx, toolId: string, inputs: Record<string, unknown>): Promise<ToolRunResult & { toolName: string }>;
}

export const actionRunner: ActionRunner = { run: runTool };

/** An attribute read in full, steps included: its run makes outside calls only, no query. */
export interface LoadedAttribute {
  id: string;
  name: string;
  inputFields: ToolInputField[];
  run(ctx: Pick<Ctx, 'outbound' | 'secrets' | 'config' | 'signal'>, inputs: Record<string, unknown>): Promise<ToolRunResult>;
}

/**
 * The attributes (alwaysGet) assigned to an agent, in creation order: what the answer pipeline runs
 * every message. Read up front, so that their runs at once never share a connection's queries.
 */
export async function attributesForAgent(ctx: Pick<Ctx, 'db' | 'workspaceId'>, agentId: string): Promise<LoadedAttribute[]> {
  const rows = await listToolRows(ctx.db, ctx.workspaceId, { alwaysGet: true, agentId });
  const steps = await concurrentQueries(ctx.db, rows.map((r) => () => listToolSteps(ctx.db, ctx.workspaceId, r.id)));
  return rows.map((r, i) => ({ id: r.id, name: r.name, inputFields: r.inputFields, run: (runCtx, inputs) => runChain(runCtx, r, steps[i] ?? [], inputs) }));
}
