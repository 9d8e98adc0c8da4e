import { iso } from '../../http/schemas.js';
import type { TagGroupRow, TagRow } from './tags.repository.js';

export function presentTagGroup(group: TagGroupRow) {
  return {
    id: group.id,
    title: group.title,
    description: group.description,
    prompt: group.prompt,
    multiselect: group.multiselect,
    mandatory: group.mandatory,
    isOutputTagGroup: group.isOutputTagGroup,
    companyId: group.workspaceId,
    isSystem: group.workspaceId === null,
    createdAt: iso(group.createdAt),
    updatedAt: iso(group.updatedAt),
  };
}

export function presentTag(tag: TagRow) {
  return {
    id: tag.id,
    tagGroupId: tag.tagGroupId,
    tagName: tag.tagName,
    tagDescription: tag.tagDescription,
    companyId: tag.workspaceId,
    createdAt: iso(tag.createdAt),
    updatedAt: iso(tag.updatedAt),
  };
}
