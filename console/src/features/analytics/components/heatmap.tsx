// When customers write: the route's 7 x 24 matrix (weekday 0 = Sunday, hours of the chosen time
// zone) as a heatmap. The drawing is a table itself: days as row headers, hours as column headers,
// each cell's count in its tooltip and its accessible text; the table view lists the same counts.
import { Box, Group, Text } from '@mantine/core';
import type { CSSProperties } from 'react';
import type { Analytics } from '../api';
import { formatCount } from '../format';
import { ChartFrame } from './chart-frame';

export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
// Monday first, as most support teams read their week.
const ORDER = [1, 2, 3, 4, 5, 6, 0];
const HOURS = Array.from({ length: 24 }, (_, h) => h);
const hourLabel = (h: number) => `${String(h).padStart(2, '0')}:00`;
// Plain elements with shared styles: 200 Mantine components (VisuallyHidden) here cost more to mount than the four charts.
const hidden: CSSProperties = { position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' };
const cellStyle: CSSProperties = { height: 22, borderRadius: 3, minWidth: 18 };

/** From white to Mantine's blue 9 by the share of the busiest hour (0 stays white). */
function shade(count: number, max: number): string {
  if (count === 0 || max === 0) return '#f8f9fa';
  const t = 0.12 + 0.88 * (count / max);
  const mix = (from: number, to: number) => Math.round(from + (to - from) * t);
  return `rgb(${mix(231, 24)}, ${mix(245, 100)}, ${mix(255, 171)})`;
}

export function Heatmap({ data, timezone }: { data: Analytics; timezone: string }) {
  const matrix = data.hourlyVolume;
  const max = Math.max(0, ...matrix.flat());
  const title = `Conversations by weekday and hour (${timezone})`;
  return (
    <ChartFrame
      title={title}
      readable
      table={{
        columns: ['Weekday', ...HOURS.map(hourLabel), 'Total'],
        rows: ORDER.map((d) => ({ key: String(d), cells: [WEEKDAYS[d], ...HOURS.map((h) => formatCount(matrix[d]?.[h] ?? 0)), formatCount((matrix[d] ?? []).reduce((a, b) => a + b, 0))] })),
      }}
    >
      <Box style={{ overflowX: 'auto' }}>
        <table aria-label={`${title}, heatmap`} style={{ borderCollapse: 'separate', borderSpacing: 2, width: '100%', minWidth: 640 }}>
          <thead>
            <tr>
              <td />
              {HOURS.map((h) => (
                <th key={h} scope="col" style={{ fontSize: 11, fontWeight: 400, color: '#495057' }}>
                  <span aria-hidden>{h % 3 === 0 ? h : ''}</span>
                  <span style={hidden}>{hourLabel(h)}</span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {ORDER.map((d) => (
              <tr key={d}>
                <th scope="row" style={{ fontSize: 12, fontWeight: 400, textAlign: 'left', paddingRight: 8 }}>
                  {WEEKDAYS[d]!.slice(0, 3)}
                  <span style={hidden}>{WEEKDAYS[d]!.slice(3)}</span>
                </th>
                {HOURS.map((h) => {
                  const count = matrix[d]?.[h] ?? 0;
                  const label = `${WEEKDAYS[d]} ${hourLabel(h)}: ${formatCount(count)} conversation${count === 1 ? '' : 's'}`;
                  return (
                    <td key={h} title={label} style={{ ...cellStyle, background: shade(count, max) }}>
                      <span style={hidden}>{label}</span>
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </Box>
      <Group gap={6} mt="xs" aria-hidden>
        <Text size="xs">Fewer</Text>
        {[0, 0.25, 0.5, 0.75, 1].map((t) => (
          <Box key={t} w={18} h={12} style={{ background: shade(t * Math.max(max, 1), Math.max(max, 1)), borderRadius: 2 }} />
        ))}
        <Text size="xs">More (busiest hour: {formatCount(max)})</Text>
      </Group>
    </ChartFrame>
  );
}
