// The agent picker of a page that shows one agent's records (Analytics, Tests): searchable, never empty once an agent is shown.
import { Select } from '@mantine/core';
import type { Agent } from '../features/agents/api';

export function AgentSelect({ agents, value, onChange }: { agents: Agent[] | undefined; value: string | undefined; onChange(id: string): void }) {
  return (
    <Select
      label="Agent"
      data={(agents ?? []).map((a) => ({ value: a.id, label: a.name }))}
      value={value ?? null}
      allowDeselect={false}
      searchable
      w={260}
      onChange={(id) => id && onChange(id)}
    />
  );
}
