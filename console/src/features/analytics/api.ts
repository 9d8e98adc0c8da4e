// Query hooks of the Analytics page: the agent's analytics for a window (the one route that draws the
// whole dashboard), and the names its filters offer (tags, rules, the agent's folders), fetched only
// when the filters are open so the dashboard itself renders with three calls.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, call, type Schemas } from '../../api/client';
import { useRules } from '../rules/api';
import { useAllTags, useTagGroups } from '../tags/api';
import type { routeQuery } from './window';

export type Analytics = Schemas['AgentAnalytics'];
type SnapshotFolder = Schemas['SnapshotFolder'];

export function useAnalytics(agentId: string | undefined, query: ReturnType<typeof routeQuery>) {
  return useQuery({
    queryKey: ['analytics', 'agent', agentId, query],
    enabled: agentId !== undefined,
    // The previous window's numbers stay while the next load, so the page does not jump.
    placeholderData: keepPreviousData,
    queryFn: () => call(api.GET('/v2/bots/{id}/hc-analytics/public', { params: { path: { id: agentId! }, query } })),
  });
}

export interface Option {
  value: string;
  label: string;
}

function flatten(folders: SnapshotFolder[], path: string[] = []): Option[] {
  return folders.flatMap((f) => [{ value: f.id, label: [...path, f.title].join(' / ') }, ...flatten(f.subfolders, [...path, f.title])]);
}

/** Tags (escalation reasons apart, as the route filters them apart), published intent rules, and the agent's folders. */
export function useFilterOptions(agentId: string | undefined, enabled: boolean) {
  const on = enabled && agentId !== undefined;
  // The Tags and Rules pages' own caches, so a tag or rule changed there is offered here.
  const groups = useTagGroups(on);
  const tags = useAllTags(on);
  const rules = useRules(false, on);
  const folders = useQuery({
    queryKey: ['knowledge', 'tree', agentId],
    enabled: on,
    queryFn: () => call(api.GET('/v2/hc-folders/public', { params: { query: { botId: agentId! } } })),
  });
  const reasonGroups = new Set((groups.data ?? []).filter((g) => g.isSystem && g.title === 'Escalation Reason').map((g) => g.id));
  const allTags = tags.data ?? [];
  return {
    error: groups.error ?? tags.error ?? rules.error ?? folders.error,
    tags: allTags.filter((t) => !reasonGroups.has(t.tagGroupId)).map((t) => ({ value: t.id, label: t.tagName })),
    reasons: allTags.filter((t) => reasonGroups.has(t.tagGroupId)).map((t) => ({ value: t.id, label: t.tagName })),
    rules: (rules.data ?? []).map((r) => ({ value: r.id, label: r.name })),
    folders: flatten(folders.data?.snapshotObjV2 ?? []),
  };
}
