import { authorOf, inTransaction, type WorkspaceContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { type Guardrail, guardrailDefinitionSchema, type GuardrailKind, type GuardrailsOutcome, type GuardrailStage, runGuardrails } from '../../evaluators/guardrails.js';
import { requireAgent, requireAgentIds } from '../agents/index.js';
import {
  deleteGuardrail as deleteRow,
  findGuardrail,
  type GuardrailWithAgents,
  insertGuardrail,
  listGuardrails as listRows,
  setGuardrailAgents,
  updateGuardrail as updateRow,
} from './guardrails.repository.js';

type Ctx = WorkspaceContext;

export interface GuardrailInput {
  name?: string;
  kind?: GuardrailKind;
  stage?: GuardrailStage;
  action?: string;
  config?: Record<string, unknown>;
  isEnabled?: boolean;
  botIds?: string[];
}

/** Kind, config, stage and action checked together; a problem names the body field. */
function definition(input: GuardrailInput) {
  const parsed = guardrailDefinitionSchema.safeParse({ name: input.name, kind: input.kind, stage: input.stage, action: input.action, config: input.config });
  if (!parsed.success) {
    throw new AppError('bad_request', parsed.error.issues.map((i) => `body${i.path.length ? `.${i.path.join('.')}` : ''}: ${i.message}`).join('; '));
  }
  return parsed.data;
}

const notFound = () => new AppError('not_found', 'guardrail not found');

export async function listGuardrails(ctx: Ctx, query: { botId?: string; stage?: GuardrailStage }): Promise<GuardrailWithAgents[]> {
  if (query.botId) await requireAgent(ctx, query.botId);
  return listRows(ctx.db, ctx.workspaceId, { agentId: query.botId, stage: query.stage });
}

export async function getGuardrail(ctx: Ctx, id: string): Promise<GuardrailWithAgents> {
  const row = await findGuardrail(ctx.db, ctx.workspaceId, id);
  if (!row) throw notFound();
  return row;
}

export async function createGuardrail(ctx: Ctx, input: Required<Pick<GuardrailInput, 'isEnabled' | 'botIds'>> & GuardrailInput): Promise<GuardrailWithAgents> {
  const def = definition(input);
  return inTransaction(ctx, async (tx) => {
    const agents = await requireAgentIds(tx, input.botIds, 'body.botIds');
    const row = await insertGuardrail(tx.db, ctx.workspaceId, { ...def, isEnabled: input.isEnabled }, authorOf(ctx), ctx.clock.now());
    await setGuardrailAgents(tx.db, ctx.workspaceId, row.id, agents);
    return (await findGuardrail(tx.db, ctx.workspaceId, row.id))!;
  });
}

/** Changes the fields given; the result is checked as a whole (a new kind needs its config). */
export async function updateGuardrail(ctx: Ctx, id: string, input: GuardrailInput): Promise<GuardrailWithAgents> {
  return inTransaction(ctx, async (tx) => {
    const current = await findGuardrail(tx.db, ctx.workspaceId, id);
    if (!current) throw notFound();
    const kindChanged = input.kind !== undefined && input.kind !== current.kind;
    const def = definition({
      name: input.name ?? current.name,
      kind: input.kind ?? (current.kind as GuardrailKind),
      stage: input.stage ?? (current.stage as GuardrailStage),
      action: input.action ?? current.action,
      config: input.config ?? (kindChanged ? undefined : current.config),
    });
    await updateRow(tx.db, ctx.workspaceId, id, { ...def, isEnabled: input.isEnabled ?? current.isEnabled }, authorOf(ctx), ctx.clock.now());
    if (input.botIds) await setGuardrailAgents(tx.db, ctx.workspaceId, id, await requireAgentIds(tx, input.botIds, 'body.botIds'));
    return (await findGuardrail(tx.db, ctx.workspaceId, id))!;
  });
}

export async function deleteGuardrail(ctx: Ctx, id: string): Promise<GuardrailWithAgents> {
  return inTransaction(ctx, async (tx) => {
    const current = await findGuardrail(tx.db, ctx.workspaceId, id);
    if (!current) throw notFound();
    await deleteRow(tx.db, ctx.workspaceId, id);
    return current;
  });
}

const asGuardrail = (row: GuardrailWithAgents): Guardrail => ({
  id: row.id,
  name: row.name,
  kind: row.kind as GuardrailKind,
  stage: row.stage as GuardrailStage,
  action: row.action as Guardrail['action'],
  config: row.config,
  isEnabled: row.isEnabled,
});

/** An agent's guardrails of one stage, in the order they run (the answer pipeline's read). */
export async function guardrailsForAgent(ctx: Pick<Ctx, 'db' | 'workspaceId'>, agentId: string, stage: GuardrailStage): Promise<Guardrail[]> {
  return (await listRows(ctx.db, ctx.workspaceId, { agentId, stage })).map(asGuardrail);
}

/**
 * What the guardrails would do with a text: the named guardrails (enabled or not), else the
 * agent's enabled ones, else every enabled guardrail of the workspace. Changes nothing.
 */
export async function testGuardrails(
  ctx: Ctx,
  input: { stage: GuardrailStage; text: string; citations?: string[]; botId?: string; guardrailIds?: string[] },
): Promise<GuardrailsOutcome & { stage: GuardrailStage }> {
  let chosen: Guardrail[];
  if (input.guardrailIds) {
    const rows = await listRows(ctx.db, ctx.workspaceId, { ids: input.guardrailIds });
    const missing = input.guardrailIds.findIndex((id) => !rows.some((r) => r.id === id));
    if (missing >= 0) throw new AppError('bad_request', `body.guardrailIds.${missing}: guardrail ${input.guardrailIds[missing]} does not exist in this workspace`);
    chosen = rows.map((r) => ({ ...asGuardrail(r), isEnabled: true }));
  } else if (input.botId) {
    await requireAgent(ctx, input.botId);
    chosen = await guardrailsForAgent(ctx, input.botId, input.stage);
  } else {
    chosen = (await listRows(ctx.db, ctx.workspaceId, { stage: input.stage })).map(asGuardrail);
  }
  return { stage: input.stage, ...runGuardrails(chosen, input) };
}
