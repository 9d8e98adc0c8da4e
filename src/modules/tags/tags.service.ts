import { authorOf, inTransaction, type WorkspaceContext } from '../../context.js';
import { concurrentQueries, type Db } from '../../db/database.js';
import { AppError } from '../../http/errors.js';
import {
  deleteTag as deleteTagRow,
  deleteTagGroup as deleteTagGroupRow,
  findTag,
  findTagByName,
  findTagGroup,
  findTagsByIds,
  insertTag,
  insertTagGroup,
  listTagGroups as listTagGroupRows,
  listTags,
  type TagGroupRow,
  type TagRow,
  updateTag as updateTagRow,
  updateTagGroup as updateTagGroupRow,
} from './tags.repository.js';

type Ctx = WorkspaceContext;
type GroupFields = Pick<TagGroupRow, 'title' | 'description' | 'prompt' | 'multiselect' | 'mandatory' | 'isOutputTagGroup'>;

const groupNotFound = () => new AppError('not_found', 'tag group not found');
const tagNotFound = () => new AppError('not_found', 'tag not found');

async function requireGroup(db: Db, ctx: Ctx, id: string, lock = false): Promise<TagGroupRow> {
  const group = await findTagGroup(db, ctx.workspaceId, id, { lock });
  if (!group) throw groupNotFound();
  return group;
}

async function requireTag(db: Db, ctx: Ctx, id: string): Promise<TagRow> {
  const tag = await findTag(db, ctx.workspaceId, id);
  if (!tag) throw tagNotFound();
  return tag;
}

/** 400 for Parley's system groups (and their tags): every workspace reads them, none changes them. */
function requireWritable(group: TagGroupRow): void {
  if (group.workspaceId === null) throw new AppError('bad_request', `tag group "${group.title}" is a read-only system group`);
}

/** 409 when the group already has a tag of this name (case-insensitively); the group row is locked by the caller. */
async function requireFreeName(db: Db, ctx: Ctx, group: TagGroupRow, name: string, exceptId?: string): Promise<void> {
  const existing = await findTagByName(db, ctx.workspaceId, group.id, name, exceptId);
  if (existing) throw new AppError('conflict', `tag group "${group.title}" already has a tag named "${existing.tagName}"`);
}

export async function listTagGroups(ctx: Ctx): Promise<TagGroupRow[]> {
  return listTagGroupRows(ctx.db, ctx.workspaceId);
}

export async function getTagGroup(ctx: Ctx, id: string): Promise<TagGroupRow> {
  return requireGroup(ctx.db, ctx, id);
}

export async function createTagGroup(ctx: Ctx, fields: GroupFields): Promise<TagGroupRow> {
  return inTransaction(ctx, (tx) => insertTagGroup(tx.db, ctx.workspaceId, fields, authorOf(ctx), ctx.clock.now()));
}

export async function updateTagGroup(ctx: Ctx, id: string, changes: Partial<GroupFields>): Promise<TagGroupRow> {
  return inTransaction(ctx, async (tx) => {
    const group = await requireGroup(tx.db, tx, id);
    requireWritable(group);
    const row = await updateTagGroupRow(tx.db, ctx.workspaceId, id, changes, authorOf(ctx), ctx.clock.now());
    if (!row) throw groupNotFound();
    return row;
  });
}

/** Deletes a group with its tags; answers the deleted group. */
export async function deleteTagGroup(ctx: Ctx, id: string): Promise<TagGroupRow> {
  return inTransaction(ctx, async (tx) => {
    const group = await requireGroup(tx.db, tx, id);
    requireWritable(group);
    if (!(await deleteTagGroupRow(tx.db, ctx.workspaceId, id))) throw groupNotFound();
    return group;
  });
}

export async function listGroupTags(ctx: Ctx, groupId: string): Promise<TagRow[]> {
  await requireGroup(ctx.db, ctx, groupId);
  return listTags(ctx.db, ctx.workspaceId, [groupId]);
}

/** Tags of several groups (every visible group when `groupIds` is undefined); 404 naming an unknown group. */
export async function listTagsOfGroups(ctx: Ctx, groupIds: readonly string[] | undefined): Promise<TagRow[]> {
  if (groupIds) {
    const visible = new Set((await listTagGroupRows(ctx.db, ctx.workspaceId)).map((g) => g.id));
    const unknown = groupIds.find((id) => !visible.has(id));
    if (unknown) throw new AppError('not_found', `tag group ${unknown} not found`);
  }
  return listTags(ctx.db, ctx.workspaceId, groupIds ? [...new Set(groupIds)] : undefined);
}

export async function createTag(ctx: Ctx, groupId: string, fields: { tagName: string; tagDescription: string }): Promise<TagRow> {
  return inTransaction(ctx, async (tx) => {
    const group = await requireGroup(tx.db, tx, groupId, true);
    requireWritable(group);
    await requireFreeName(tx.db, tx, group, fields.tagName);
    return insertTag(tx.db, ctx.workspaceId, { tagGroupId: groupId, ...fields }, authorOf(ctx), ctx.clock.now());
  });
}

export async function getTag(ctx: Ctx, id: string): Promise<TagRow> {
  return requireTag(ctx.db, ctx, id);
}

export async function updateTag(ctx: Ctx, id: string, changes: { tagName?: string; tagDescription?: string }): Promise<TagRow> {
  return inTransaction(ctx, async (tx) => {
    const tag = await requireTag(tx.db, tx, id);
    const group = await requireGroup(tx.db, tx, tag.tagGroupId, true);
    requireWritable(group);
    if (changes.tagName !== undefined) await requireFreeName(tx.db, tx, group, changes.tagName, id);
    const row = await updateTagRow(tx.db, ctx.workspaceId, id, changes, authorOf(ctx), ctx.clock.now());
    if (!row) throw tagNotFound();
    return row;
  });
}

/** Deletes a tag; answers the deleted tag. */
export async function deleteTag(ctx: Ctx, id: string): Promise<TagRow> {
  return inTransaction(ctx, async (tx) => {
    const tag = await requireTag(tx.db, tx, id);
    requireWritable(await requireGroup(tx.db, tx, tag.tagGroupId));
    if (!(await deleteTagRow(tx.db, ctx.workspaceId, id))) throw tagNotFound();
    return tag;
  });
}

/** The ids among `ids` that name a tag the workspace sees (its own or a system tag). */
export async function existingTagIds(ctx: Pick<Ctx, 'db' | 'workspaceId'>, ids: readonly string[]): Promise<Set<string>> {
  return new Set((await findTagsByIds(ctx.db, ctx.workspaceId, ids)).map((t) => t.id));
}

export interface TagGroupWithTags extends TagGroupRow {
  tags: TagRow[];
}

/** Every group the workspace sees with its tags (tag selection, rule drafting). */
export async function listTagGroupsWithTags(ctx: Pick<Ctx, 'db' | 'workspaceId'>): Promise<TagGroupWithTags[]> {
  const [groups, all] = await concurrentQueries(ctx.db, [() => listTagGroupRows(ctx.db, ctx.workspaceId), () => listTags(ctx.db, ctx.workspaceId)]);
  return groups.map((g) => ({ ...g, tags: all.filter((t) => t.tagGroupId === g.id) }));
}
