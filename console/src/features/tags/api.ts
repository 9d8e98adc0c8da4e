// Query and mutation hooks of the Tags page: tag groups and their tags (system groups are
// Parley's, read-only; the API refuses changes to them with a 400).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call, type Schemas } from '../../api/client';

export type TagGroup = Schemas['TagGroup'];
export type Tag = Schemas['Tag'];
export interface GroupFields {
  title: string;
  description: string;
  prompt: string;
  multiselect: boolean;
  mandatory: boolean;
  isOutputTagGroup: boolean;
}
export interface TagFields {
  tagName: string;
  tagDescription: string;
}

// The one cache of tag groups and tags: every page (Rules, Conversations, Analytics) reads them
// through these hooks, so a change made on the Tags page refreshes them all.
export const tagKeys = { all: ['tags'] as const, groups: ['tags', 'groups'] as const, tags: ['tags', 'tags'] as const };

/** System groups first, then the workspace's in creation order; asked for only when `enabled`. */
export function useTagGroups(enabled = true) {
  return useQuery({ queryKey: tagKeys.groups, enabled, queryFn: () => call(api.GET('/v2/tag-groups/public', {})) });
}

/** The tags of every group the workspace sees, in one request; asked for only when `enabled`. */
export function useAllTags(enabled = true) {
  return useQuery({ queryKey: tagKeys.tags, enabled, queryFn: () => call(api.GET('/v2/tag-groups/tags/public', { params: { query: {} } })) });
}

function useTagMutation<I, O>(mutationFn: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => queryClient.invalidateQueries({ queryKey: tagKeys.all }) });
}

export const useCreateGroup = () => useTagMutation((body: GroupFields) => call(api.POST('/v2/tag-groups/public', { body })));

export const useUpdateGroup = () =>
  useTagMutation(({ id, body }: { id: string; body: GroupFields }) => call(api.PUT('/v2/tag-groups/{id}/public', { params: { path: { id } }, body })));

export const useDeleteGroup = () => useTagMutation((id: string) => call(api.DELETE('/v2/tag-groups/{id}/public', { params: { path: { id } } })));

export const useCreateTag = () =>
  useTagMutation(({ groupId, body }: { groupId: string; body: TagFields }) => call(api.POST('/v2/tag-groups/{id}/tags/public', { params: { path: { id: groupId } }, body })));

/** The update route takes the tag's id in the group's place in the path (the deployed service's quirk). */
export const useUpdateTag = () =>
  useTagMutation(({ id, body }: { id: string; body: TagFields }) => call(api.PUT('/v2/tag-groups/{id}/tags/public', { params: { path: { id } }, body })));

export const useDeleteTag = () => useTagMutation((id: string) => call(api.DELETE('/v2/tags/{id}/public', { params: { path: { id } } })));
