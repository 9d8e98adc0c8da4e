// One agent's analytics dashboard: the agent picker, the window and filters (kept in the address),
// then the cards, the daily charts, the heatmap and the breakdowns, all from one call of the route.
import { Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { AgentSelect } from '../../../components/agent-select';
import { Empty, ErrorState, Loading } from '../../../components/states';
import { useAgents } from '../../agents/api';
import { useAnalytics } from '../api';
import { formatDay } from '../format';
import { type DashboardState, readState, routeQuery, windowDays, writeState } from '../window';
import { Breakdowns } from './breakdowns';
import { DailyCharts } from './daily-charts';
import { activeFilters, FilterPanel } from './filters';
import { Heatmap } from './heatmap';
import { SummaryCards } from './summary-cards';
import { WindowControls } from './window-controls';

/**
 * The state kept when another agent is picked: the folder filter names folders of the agent left
 * (the list offers the agent's own), so it goes; rules and tags are the account's and stay.
 */
const forAnotherAgent = (state: DashboardState): DashboardState => ({ ...state, filters: { ...state.filters, usedSubfolderIds: [] } });

export function Dashboard({ agentId }: { agentId: string | undefined }) {
  const search = useSearch();
  const [, navigate] = useLocation();
  const state = readState(new URLSearchParams(search));
  const agents = useAgents();
  // Without an agent in the address, the first one (the most recently updated) is shown.
  const shownId = agentId ?? agents.data?.[0]?.id;
  const query = routeQuery(state);
  const analytics = useAnalytics(shownId, query);
  const count = activeFilters(state.filters);
  const [filtersOpen, setFiltersOpen] = useState(count > 0);

  useEffect(() => {
    if (!agentId && shownId) navigate(`/${shownId}${search ? `?${search}` : ''}`, { replace: true });
  }, [agentId, shownId, search, navigate]);

  // A new window or filter replaces the address (Back leaves the dashboard instead of stepping
  // through every filter change); another agent is a new entry.
  const go = (id: string, next: DashboardState) => {
    const query = writeState(next);
    navigate(`/${id}${query ? `?${query}` : ''}`, { replace: id === shownId });
  };
  const { first, last } = windowDays(state);
  const days = Math.round((Date.parse(last) - Date.parse(first)) / 86_400_000) + 1;
  const data = analytics.data;

  return (
    <Stack>
      <Group justify="space-between" align="end">
        <Title order={1} size="h3">
          Analytics
        </Title>
        <AgentSelect agents={agents.data} value={shownId} onChange={(id) => go(id, forAnotherAgent(state))} />
      </Group>
      <Group align="end" justify="space-between">
        <WindowControls state={state} onChange={(next) => shownId && go(shownId, next)} />
        <Button variant="default" aria-expanded={filtersOpen} onClick={() => setFiltersOpen(!filtersOpen)} rightSection={count > 0 ? <Badge size="sm">{count}</Badge> : undefined}>
          {filtersOpen ? 'Hide filters' : 'Filters'}
        </Button>
      </Group>
      <FilterPanel agentId={shownId} state={state} open={filtersOpen} onChange={(next) => shownId && go(shownId, next)} />
      <Text size="sm" c="dimmed" role="status" aria-live="polite">
        {formatDay(first)} to {formatDay(last)} ({days} day{days === 1 ? '' : 's'}, {state.timezone}), compared with the {days} days before
        {analytics.isFetching && data ? ' · updating…' : ''}
      </Text>
      {agents.error && <ErrorState error={agents.error} title="The agents could not be loaded" />}
      {agents.data?.length === 0 && <Empty>No agents yet: create one on the Agents page, then its conversations show here.</Empty>}
      {analytics.error && <ErrorState error={analytics.error} title="The analytics could not be loaded" />}
      {shownId && analytics.isPending && !analytics.error && <Loading label="Loading the analytics…" />}
      {data && (
        <Stack aria-busy={analytics.isFetching}>
          <SummaryCards data={data} comparisonLabel={`the ${days} days before`} />
          {data.summary.totalConversations === 0 ? (
            <Empty>No conversations in this window{count > 0 ? ' match these filters' : ''}. Pick a longer window or other filters.</Empty>
          ) : (
            <>
              <DailyCharts data={data} />
              <Heatmap data={data} timezone={data.timezone} />
              <Breakdowns data={data} />
            </>
          )}
        </Stack>
      )}
    </Stack>
  );
}
