export { tagRoutes } from './tags.routes.js';
export { existingTagIds, listTagGroupsWithTags, type TagGroupWithTags } from './tags.service.js';
export * from './system-tags.js';
