import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { type PromptSet, promptDrafts, promptVersions } from '../../db/schema/index.js';

export type PromptVersionRow = typeof promptVersions.$inferSelect;
export type PromptDraftRow = typeof promptDrafts.$inferSelect;
export type PromptDraftStatus = 'draft' | 'published' | 'discarded';

export async function insertPromptVersion(
  db: Db,
  workspaceId: string,
  values: { agentId: string; version: number; prompts: PromptSet; createdBy: string | null; createdAt: Date; draftId?: string },
): Promise<PromptVersionRow> {
  const [row] = await db.insert(promptVersions).values({ ...values, workspaceId }).returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

/** Every saved version of an agent's prompts, newest first. */
export async function listPromptVersions(db: Db, workspaceId: string, agentId: string): Promise<PromptVersionRow[]> {
  return db
    .select()
    .from(promptVersions)
    .where(and(eq(promptVersions.workspaceId, workspaceId), eq(promptVersions.agentId, agentId)))
    .orderBy(desc(promptVersions.version));
}

export async function findPromptVersion(
  db: Db,
  workspaceId: string,
  agentId: string,
  version: number,
): Promise<PromptVersionRow | undefined> {
  const [row] = await db
    .select()
    .from(promptVersions)
    .where(
      and(eq(promptVersions.workspaceId, workspaceId), eq(promptVersions.agentId, agentId), eq(promptVersions.version, version)),
    );
  return row;
}

export async function insertPromptDraft(
  db: Db,
  workspaceId: string,
  values: {
    agentId: string;
    baseVersion: number | null;
    prompts: PromptSet;
    note: string;
    origin: string;
    by: string | null;
    now: Date;
  },
): Promise<PromptDraftRow> {
  const { by, now, ...rest } = values;
  const [row] = await db
    .insert(promptDrafts)
    .values({ ...rest, workspaceId, createdBy: by, updatedBy: by, createdAt: now, updatedAt: now })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

export async function findPromptDraft(
  db: Db,
  workspaceId: string,
  agentId: string,
  draftId: string,
  options: { lock?: boolean } = {},
): Promise<PromptDraftRow | undefined> {
  const query = db
    .select()
    .from(promptDrafts)
    .where(and(eq(promptDrafts.workspaceId, workspaceId), eq(promptDrafts.agentId, agentId), eq(promptDrafts.id, draftId)));
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

export async function listPromptDrafts(
  db: Db,
  workspaceId: string,
  agentId: string,
  status: PromptDraftStatus,
): Promise<PromptDraftRow[]> {
  return db
    .select()
    .from(promptDrafts)
    .where(and(eq(promptDrafts.workspaceId, workspaceId), eq(promptDrafts.agentId, agentId), eq(promptDrafts.status, status)))
    .orderBy(desc(promptDrafts.updatedAt), desc(promptDrafts.id));
}

export async function updatePromptDraft(
  db: Db,
  workspaceId: string,
  draftId: string,
  changes: Partial<Pick<PromptDraftRow, 'prompts' | 'note' | 'status' | 'publishedVersionId'>> & { by: string | null; now: Date },
): Promise<PromptDraftRow> {
  const { by, now, ...rest } = changes;
  const [row] = await db
    .update(promptDrafts)
    .set({ ...rest, updatedBy: by, updatedAt: now })
    .where(and(eq(promptDrafts.workspaceId, workspaceId), eq(promptDrafts.id, draftId)))
    .returning();
  if (!row) throw new Error('update returned no row');
  return row;
}
