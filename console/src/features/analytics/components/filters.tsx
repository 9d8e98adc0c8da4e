// Every filter of the analytics route. The status, channel, source, sentiment and rating filters
// are fixed lists; tags, escalation reasons, rules and folders are fetched when the filters open.
import { Alert, Button, Collapse, Group, MultiSelect, SimpleGrid } from '@mantine/core';
import { STATUSES } from '../../conversations/api';
import { type Option, useFilterOptions } from '../api';
import { type DashboardState, type Filters, LIST_FILTERS, type ListFilter } from '../window';
import { errorText } from '../../../components/states';

const FIXED: Partial<Record<ListFilter, { label: string; data: Option[] }>> = {
  source: {
    label: 'Source',
    data: [
      { value: 'api', label: 'Customers (api)' },
      { value: 'replay', label: 'Refine with AI replays' },
      { value: 'testsuite', label: 'Test runs' },
      { value: 'all', label: 'All sources' },
    ],
  },
  channel: { label: 'Channel', data: [{ value: 'chat', label: 'Chat' }, { value: 'email', label: 'Email' }] },
  latestStatus: { label: 'Status', data: STATUSES.map((s) => ({ value: s, label: s })) },
  latestSentiment: { label: 'Latest sentiment', data: ['positive', 'neutral', 'negative'].map((s) => ({ value: s, label: s[0]!.toUpperCase() + s.slice(1) })) },
  csatRatings: { label: 'CSAT rating', data: ['1', '2', '3', '4', '5'].map((r) => ({ value: r, label: `${r} / 5` })) },
};

const FETCHED_LABELS: Partial<Record<ListFilter, string>> = {
  tagIds: 'Tags',
  escalationReasonTagIds: 'Escalation reasons',
  ruleIds: 'Intent rules',
  usedSubfolderIds: 'Knowledge folders used',
};

export function activeFilters(filters: Filters): number {
  return LIST_FILTERS.filter((name) => filters[name].length > 0).length;
}

export function FilterPanel({ agentId, state, open, onChange }: { agentId: string | undefined; state: DashboardState; open: boolean; onChange: (next: DashboardState) => void }) {
  const options = useFilterOptions(agentId, open);
  const fetched: Partial<Record<ListFilter, Option[]>> = { tagIds: options.tags, escalationReasonTagIds: options.reasons, ruleIds: options.rules, usedSubfolderIds: options.folders };
  const set = (name: ListFilter, values: string[]) => onChange({ ...state, filters: { ...state.filters, [name]: values } });
  const count = activeFilters(state.filters);
  return (
    <Collapse expanded={open}>
      {/* Nine selects mounted only when asked for: the dashboard's first drawing does not wait for them. */}
      {open && (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} component="form" aria-label="Filters" onSubmit={(e) => e.preventDefault()}>
          {LIST_FILTERS.map((name) => {
            const fixed = FIXED[name];
            const data = fixed?.data ?? fetched[name] ?? [];
            // A value in the address that the list no longer holds (a deleted tag) stays pickable off.
            const known = new Set(data.map((o) => o.value));
            const all = [...data, ...state.filters[name].filter((v) => !known.has(v)).map((v) => ({ value: v, label: v }))];
            return (
              <MultiSelect
                key={name}
                label={fixed?.label ?? FETCHED_LABELS[name]}
                placeholder={name === 'source' && state.filters.source.length === 0 ? 'Customers (api)' : undefined}
                data={all}
                value={state.filters[name]}
                onChange={(values) => set(name, values)}
                searchable
                clearable
                nothingFoundMessage="Nothing to pick"
              />
            );
          })}
        </SimpleGrid>
      )}
      {options.error && (
        <Alert color="red" mt="sm" title="Some filters could not be loaded" role="alert">
          {errorText(options.error)}
        </Alert>
      )}
      <Group mt="sm">
        <Button variant="default" size="xs" disabled={count === 0} onClick={() => onChange({ ...state, filters: Object.fromEntries(LIST_FILTERS.map((n) => [n, []])) as unknown as Filters })}>
          Clear all filters
        </Button>
      </Group>
    </Collapse>
  );
}
