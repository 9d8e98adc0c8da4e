// The window (a preset of the last N days, or custom dates: changing a date makes the window custom)
// and the time zone its days are read in.
import { Group, Select, TextInput, VisuallyHidden } from '@mantine/core';
import { useMemo } from 'react';
import { type DashboardState, PRESETS, browserTimeZone, windowDays } from '../window';

const CUSTOM = 'custom';

function timeZones(current: string): string[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set(['UTC', browserTimeZone(), current, ...zones])];
}

export function WindowControls({ state, onChange }: { state: DashboardState; onChange: (next: DashboardState) => void }) {
  const zones = useMemo(() => timeZones(state.timezone), [state.timezone]);
  const custom = Boolean(state.from && state.to);
  const { first, last } = windowDays(state);
  const presetValue = custom ? CUSTOM : String(state.days);
  const presets = [...PRESETS.map((d) => ({ value: String(d), label: `Last ${d} days` })), { value: CUSTOM, label: 'Custom dates' }];
  if (!custom && !PRESETS.includes(state.days as (typeof PRESETS)[number])) presets.unshift({ value: String(state.days), label: `Last ${state.days} days` });
  return (
    <Group align="end" gap="sm" component="fieldset" style={{ border: 0, padding: 0, margin: 0 }}>
      <VisuallyHidden component="legend">Window and time zone</VisuallyHidden>
      <Select
        label="Window"
        data={presets}
        value={presetValue}
        allowDeselect={false}
        w={170}
        onChange={(value) => {
          if (value === CUSTOM) onChange({ ...state, days: undefined, from: first, to: last });
          else if (value) onChange({ ...state, days: Number(value), from: undefined, to: undefined });
        }}
      />
      <TextInput
        type="date"
        label="From"
        value={first}
        max={last}
        onChange={(e) => e.currentTarget.value && onChange({ ...state, days: undefined, from: e.currentTarget.value, to: last })}
      />
      <TextInput
        type="date"
        label="To"
        value={last}
        min={first}
        onChange={(e) => e.currentTarget.value && onChange({ ...state, days: undefined, from: first, to: e.currentTarget.value })}
      />
      <Select
        label="Time zone"
        data={zones}
        value={state.timezone}
        searchable
        allowDeselect={false}
        w={220}
        onChange={(timezone) => timezone && onChange({ ...state, timezone })}
      />
    </Group>
  );
}
