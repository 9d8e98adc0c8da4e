import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { agents, ruleAgents, ruleDrafts, rules, type RuleVersionItem, ruleVersions } from '../../db/schema/index.js';

export type RuleRow = typeof rules.$inferSelect;
export type RuleVersionRow = typeof ruleVersions.$inferSelect;
/** A rule with the live agents it applies to. */
export type RuleWithAgents = RuleRow & { botIds: string[] };

/** The live (not deleted) agents of each rule, by rule id, in a stable order. */
async function agentsOf(db: Db, workspaceId: string, ruleIds: readonly string[]): Promise<Map<string, string[]>> {
  const byRule = new Map<string, string[]>(ruleIds.map((id) => [id, []]));
  if (ruleIds.length === 0) return byRule;
  const rows = await db
    .select({ ruleId: ruleAgents.ruleId, agentId: ruleAgents.agentId })
    .from(ruleAgents)
    .innerJoin(agents, and(eq(agents.workspaceId, ruleAgents.workspaceId), eq(agents.id, ruleAgents.agentId), isNull(agents.deletedAt)))
    .where(and(eq(ruleAgents.workspaceId, workspaceId), inArray(ruleAgents.ruleId, [...ruleIds])))
    .orderBy(asc(ruleAgents.agentId));
  for (const row of rows) byRule.get(row.ruleId)?.push(row.agentId);
  return byRule;
}

async function withAgents(db: Db, workspaceId: string, rows: RuleRow[]): Promise<RuleWithAgents[]> {
  const byRule = await agentsOf(db, workspaceId, rows.map((r) => r.id));
  return rows.map((row) => ({ ...row, botIds: byRule.get(row.id) ?? [] }));
}

export async function listRules(
  db: Db,
  workspaceId: string,
  filter: { type: string; status: string; source?: string },
): Promise<RuleWithAgents[]> {
  const rows = await db
    .select()
    .from(rules)
    .where(
      and(
        eq(rules.workspaceId, workspaceId),
        eq(rules.type, filter.type),
        eq(rules.status, filter.status),
        filter.source ? eq(rules.source, filter.source) : undefined,
      ),
    )
    .orderBy(desc(rules.updatedAt), desc(rules.id));
  return withAgents(db, workspaceId, rows);
}

/** One rule; `lock` takes its row lock for the rest of the transaction (serialises version numbers). */
export async function findRule(db: Db, workspaceId: string, id: string, options: { lock?: boolean } = {}): Promise<RuleWithAgents | undefined> {
  const query = db.select().from(rules).where(and(eq(rules.workspaceId, workspaceId), eq(rules.id, id)));
  const [row] = options.lock ? await query.for('update') : await query;
  if (!row) return undefined;
  const [rule] = await withAgents(db, workspaceId, [row]);
  return rule;
}

export type RuleValues = Pick<
  RuleRow,
  'type' | 'status' | 'name' | 'description' | 'source' | 'triggerType' | 'inputSchema' | 'flowConfig' | 'behaviorInstructions'
> &
  Partial<Pick<RuleRow, 'draftWarnings'>>;

export async function insertRule(db: Db, workspaceId: string, values: RuleValues, by: string | null, now: Date): Promise<RuleRow> {
  const [row] = await db
    .insert(rules)
    .values({ ...values, workspaceId, createdBy: by, updatedBy: by, createdAt: now, updatedAt: now })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

export async function updateRule(
  db: Db,
  workspaceId: string,
  id: string,
  changes: Partial<RuleValues> & Partial<Pick<RuleRow, 'version' | 'currentVersionId'>>,
  by: string | null,
  now: Date,
): Promise<RuleRow> {
  const [row] = await db
    .update(rules)
    .set({ ...changes, updatedBy: by, updatedAt: now })
    .where(and(eq(rules.workspaceId, workspaceId), eq(rules.id, id)))
    .returning();
  if (!row) throw new Error('update returned no row');
  return row;
}

export async function deleteRule(db: Db, workspaceId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(rules)
    .where(and(eq(rules.workspaceId, workspaceId), eq(rules.id, id)))
    .returning({ id: rules.id });
  return rows.length > 0;
}

/** Replaces the agents a rule applies to. */
export async function setRuleAgents(db: Db, workspaceId: string, ruleId: string, agentIds: readonly string[]): Promise<void> {
  await db.delete(ruleAgents).where(and(eq(ruleAgents.workspaceId, workspaceId), eq(ruleAgents.ruleId, ruleId)));
  if (agentIds.length) {
    await db.insert(ruleAgents).values([...new Set(agentIds)].map((agentId) => ({ workspaceId, ruleId, agentId })));
  }
}

export async function insertRuleVersion(
  db: Db,
  workspaceId: string,
  values: { ruleId: string; version: number; item: RuleVersionItem; restoredFromVersionId?: string | null; by: string | null; now: Date },
): Promise<RuleVersionRow> {
  const { by, now, ...rest } = values;
  const [row] = await db
    .insert(ruleVersions)
    .values({ ...rest, workspaceId, createdBy: by, createdAt: now })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

/** Every version of a rule, newest first. */
export async function listRuleVersions(db: Db, workspaceId: string, ruleId: string): Promise<RuleVersionRow[]> {
  return db
    .select()
    .from(ruleVersions)
    .where(and(eq(ruleVersions.workspaceId, workspaceId), eq(ruleVersions.ruleId, ruleId)))
    .orderBy(desc(ruleVersions.version));
}

export async function findRuleVersion(db: Db, workspaceId: string, ruleId: string, versionId: string): Promise<RuleVersionRow | undefined> {
  const [row] = await db
    .select()
    .from(ruleVersions)
    .where(and(eq(ruleVersions.workspaceId, workspaceId), eq(ruleVersions.ruleId, ruleId), eq(ruleVersions.id, versionId)));
  return row;
}

/** The published rules of a type that apply to an agent (the answer pipeline's read). */
export async function listPublishedRulesForAgent(db: Db, workspaceId: string, agentId: string, type: string): Promise<RuleWithAgents[]> {
  const rows = await db
    .select({ rule: rules })
    .from(rules)
    .innerJoin(ruleAgents, and(eq(ruleAgents.workspaceId, rules.workspaceId), eq(ruleAgents.ruleId, rules.id)))
    .where(
      and(eq(rules.workspaceId, workspaceId), eq(rules.type, type), eq(rules.status, 'PUBLISHED'), eq(ruleAgents.agentId, agentId)),
    )
    .orderBy(asc(rules.createdAt), asc(rules.id));
  return withAgents(
    db,
    workspaceId,
    rows.map((r) => r.rule),
  );
}

/** Rules (drafts too) whose flow has a tool node naming the action. */
export async function listRulesNamingTool(db: Db, workspaceId: string, toolId: string): Promise<{ id: string; name: string }[]> {
  return db
    .select({ id: rules.id, name: rules.name })
    .from(rules)
    .where(
      and(
        eq(rules.workspaceId, workspaceId),
        sql`jsonb_path_exists(${rules.flowConfig}, '$.** ? (@.type == "tool" && @.toolId == $id)', jsonb_build_object('id', ${toolId}::text))`,
      ),
    )
    .orderBy(asc(rules.name), asc(rules.id));
}

export async function listRuleNames(db: Db, workspaceId: string, ids: readonly string[]): Promise<{ id: string; name: string }[]> {
  return db
    .select({ id: rules.id, name: rules.name })
    .from(rules)
    .where(and(eq(rules.workspaceId, workspaceId), inArray(rules.id, [...ids])));
}

// ---------------------------------------------------------------------------------------------
// Drafts of published rules (Refine with AI)

export type RuleDraftRow = typeof ruleDrafts.$inferSelect;

export async function insertRuleDraft(db: Db, workspaceId: string, values: Omit<typeof ruleDrafts.$inferInsert, 'workspaceId'>): Promise<RuleDraftRow> {
  const [row] = await db.insert(ruleDrafts).values({ ...values, workspaceId }).returning();
  return row!;
}

export async function findRuleDraft(db: Db, workspaceId: string, id: string, options: { lock?: boolean } = {}): Promise<RuleDraftRow | undefined> {
  const query = db.select().from(ruleDrafts).where(and(eq(ruleDrafts.workspaceId, workspaceId), eq(ruleDrafts.id, id)));
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

export async function updateRuleDraft(db: Db, workspaceId: string, id: string, changes: Partial<typeof ruleDrafts.$inferInsert>): Promise<void> {
  await db.update(ruleDrafts).set(changes).where(and(eq(ruleDrafts.workspaceId, workspaceId), eq(ruleDrafts.id, id)));
}
