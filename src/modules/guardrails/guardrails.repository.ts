import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { agents, guardrailAgents, guardrails } from '../../db/schema/index.js';

export type GuardrailRow = typeof guardrails.$inferSelect;
export type GuardrailWithAgents = GuardrailRow & { botIds: string[] };
type Values = Pick<GuardrailRow, 'name' | 'kind' | 'stage' | 'action' | 'config' | 'isEnabled'>;

async function withAgents(db: Db, workspaceId: string, rows: GuardrailRow[]): Promise<GuardrailWithAgents[]> {
  if (rows.length === 0) return [];
  const links = await db
    .select({ guardrailId: guardrailAgents.guardrailId, agentId: guardrailAgents.agentId })
    .from(guardrailAgents)
    .innerJoin(agents, and(eq(agents.workspaceId, guardrailAgents.workspaceId), eq(agents.id, guardrailAgents.agentId), isNull(agents.deletedAt)))
    .where(and(eq(guardrailAgents.workspaceId, workspaceId), inArray(guardrailAgents.guardrailId, rows.map((r) => r.id))))
    .orderBy(asc(guardrailAgents.agentId));
  return rows.map((row) => ({ ...row, botIds: links.filter((l) => l.guardrailId === row.id).map((l) => l.agentId) }));
}

/** Guardrails in creation order (the order they run in), optionally of one agent and one stage. */
export async function listGuardrails(db: Db, workspaceId: string, filter: { agentId?: string; stage?: string; ids?: readonly string[] } = {}): Promise<GuardrailWithAgents[]> {
  const base = db.select({ guardrail: guardrails }).from(guardrails);
  const joined = filter.agentId
    ? base.innerJoin(guardrailAgents, and(eq(guardrailAgents.workspaceId, guardrails.workspaceId), eq(guardrailAgents.guardrailId, guardrails.id), eq(guardrailAgents.agentId, filter.agentId)))
    : base;
  const rows = await joined
    .where(
      and(
        eq(guardrails.workspaceId, workspaceId),
        filter.stage ? eq(guardrails.stage, filter.stage) : undefined,
        filter.ids ? inArray(guardrails.id, [...filter.ids]) : undefined,
      ),
    )
    .orderBy(asc(guardrails.createdAt), asc(guardrails.id));
  return withAgents(db, workspaceId, rows.map((r) => r.guardrail));
}

export async function findGuardrail(db: Db, workspaceId: string, id: string): Promise<GuardrailWithAgents | undefined> {
  const [row] = await db.select().from(guardrails).where(and(eq(guardrails.workspaceId, workspaceId), eq(guardrails.id, id))).for('update');
  return row ? (await withAgents(db, workspaceId, [row]))[0] : undefined;
}

export async function insertGuardrail(db: Db, workspaceId: string, values: Values, by: string | null, now: Date): Promise<GuardrailRow> {
  const [row] = await db
    .insert(guardrails)
    .values({ ...values, workspaceId, createdBy: by, updatedBy: by, createdAt: now, updatedAt: now })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

export async function updateGuardrail(db: Db, workspaceId: string, id: string, values: Values, by: string | null, now: Date): Promise<void> {
  await db
    .update(guardrails)
    .set({ ...values, updatedBy: by, updatedAt: now })
    .where(and(eq(guardrails.workspaceId, workspaceId), eq(guardrails.id, id)));
}

export async function deleteGuardrail(db: Db, workspaceId: string, id: string): Promise<void> {
  await db.delete(guardrails).where(and(eq(guardrails.workspaceId, workspaceId), eq(guardrails.id, id)));
}

export async function setGuardrailAgents(db: Db, workspaceId: string, guardrailId: string, agentIds: readonly string[]): Promise<void> {
  await db.delete(guardrailAgents).where(and(eq(guardrailAgents.workspaceId, workspaceId), eq(guardrailAgents.guardrailId, guardrailId)));
  if (agentIds.length) await db.insert(guardrailAgents).values(agentIds.map((agentId) => ({ workspaceId, guardrailId, agentId })));
}
