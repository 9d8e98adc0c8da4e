import { and, asc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { tagGroups, tags } from '../../db/schema/index.js';

export type TagGroupRow = typeof tagGroups.$inferSelect;
export type TagRow = typeof tags.$inferSelect;

/** Rows a workspace sees: its own and the system ones (`workspace_id` null). */
const visibleGroup = (workspaceId: string) => or(eq(tagGroups.workspaceId, workspaceId), isNull(tagGroups.workspaceId));
const visibleTag = (workspaceId: string) => or(eq(tags.workspaceId, workspaceId), isNull(tags.workspaceId));

/** System groups first, then the workspace's in creation order. */
export async function listTagGroups(db: Db, workspaceId: string): Promise<TagGroupRow[]> {
  return db
    .select()
    .from(tagGroups)
    .where(visibleGroup(workspaceId))
    .orderBy(sql`${tagGroups.workspaceId} is not null`, asc(tagGroups.createdAt), asc(tagGroups.id));
}

/** A group the workspace sees; `lock` takes its row lock (serialises tag name checks of the group). */
export async function findTagGroup(db: Db, workspaceId: string, id: string, options: { lock?: boolean } = {}): Promise<TagGroupRow | undefined> {
  const query = db.select().from(tagGroups).where(and(eq(tagGroups.id, id), visibleGroup(workspaceId)));
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

export async function insertTagGroup(
  db: Db,
  workspaceId: string,
  values: Pick<TagGroupRow, 'title' | 'description' | 'prompt' | 'multiselect' | 'mandatory' | 'isOutputTagGroup'>,
  by: string | null,
  now: Date,
): Promise<TagGroupRow> {
  const [row] = await db
    .insert(tagGroups)
    .values({ ...values, workspaceId, createdBy: by, updatedBy: by, createdAt: now, updatedAt: now })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

export async function updateTagGroup(
  db: Db,
  workspaceId: string,
  id: string,
  changes: Partial<Pick<TagGroupRow, 'title' | 'description' | 'prompt' | 'multiselect' | 'mandatory' | 'isOutputTagGroup'>>,
  by: string | null,
  now: Date,
): Promise<TagGroupRow | undefined> {
  const [row] = await db
    .update(tagGroups)
    .set({ ...changes, updatedBy: by, updatedAt: now })
    .where(and(eq(tagGroups.workspaceId, workspaceId), eq(tagGroups.id, id)))
    .returning();
  return row;
}

export async function deleteTagGroup(db: Db, workspaceId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(tagGroups)
    .where(and(eq(tagGroups.workspaceId, workspaceId), eq(tagGroups.id, id)))
    .returning({ id: tagGroups.id });
  return rows.length > 0;
}

/** Tags of the given groups (all visible groups when `groupIds` is undefined), by group then name. */
export async function listTags(db: Db, workspaceId: string, groupIds?: readonly string[]): Promise<TagRow[]> {
  if (groupIds && groupIds.length === 0) return [];
  return db
    .select()
    .from(tags)
    .where(and(visibleTag(workspaceId), groupIds ? inArray(tags.tagGroupId, [...groupIds]) : undefined))
    .orderBy(asc(tags.tagGroupId), asc(tags.createdAt), asc(tags.id));
}

export async function findTag(db: Db, workspaceId: string, id: string): Promise<TagRow | undefined> {
  const [row] = await db.select().from(tags).where(and(eq(tags.id, id), visibleTag(workspaceId)));
  return row;
}

/** The visible tags among `ids`. */
export async function findTagsByIds(db: Db, workspaceId: string, ids: readonly string[]): Promise<TagRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(tags)
    .where(and(inArray(tags.id, [...ids]), visibleTag(workspaceId)));
}

/** A tag of the group with this name, case-insensitively (other than `exceptId`). */
export async function findTagByName(db: Db, workspaceId: string, groupId: string, name: string, exceptId?: string): Promise<TagRow | undefined> {
  const [row] = await db
    .select()
    .from(tags)
    .where(
      and(
        visibleTag(workspaceId),
        eq(tags.tagGroupId, groupId),
        sql`lower(${tags.tagName}) = lower(${name})`,
        exceptId ? sql`${tags.id} <> ${exceptId}` : undefined,
      ),
    );
  return row;
}

export async function insertTag(
  db: Db,
  workspaceId: string,
  values: { tagGroupId: string; tagName: string; tagDescription: string },
  by: string | null,
  now: Date,
): Promise<TagRow> {
  const [row] = await db
    .insert(tags)
    .values({ ...values, workspaceId, createdBy: by, updatedBy: by, createdAt: now, updatedAt: now })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

export async function updateTag(
  db: Db,
  workspaceId: string,
  id: string,
  changes: Partial<Pick<TagRow, 'tagName' | 'tagDescription'>>,
  by: string | null,
  now: Date,
): Promise<TagRow | undefined> {
  const [row] = await db
    .update(tags)
    .set({ ...changes, updatedBy: by, updatedAt: now })
    .where(and(eq(tags.workspaceId, workspaceId), eq(tags.id, id)))
    .returning();
  return row;
}

export async function deleteTag(db: Db, workspaceId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(tags)
    .where(and(eq(tags.workspaceId, workspaceId), eq(tags.id, id)))
    .returning({ id: tags.id });
  return rows.length > 0;
}
