// The four daily series of the window as charts (Recharts, only in this lazy page's chunk), each
// with its table: conversation volume by outcome, AI resolution rate, first response time, CSAT.
import { SimpleGrid } from '@mantine/core';
import type { ReactNode } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { Analytics } from '../api';
import { formatAxisDay, formatCount, formatDay, formatDuration, formatPercent, formatRating } from '../format';
import { ChartFrame } from './chart-frame';

// Mantine's 8th shades: each meets 3:1 against white, as WCAG asks of graphics.
const COLORS = { resolved: '#2f9e44', escalated: '#e03131', waiting: '#1971c2', line: '#6741d9' };

/** Charts draw without animation: the numbers are there at once (and the bench times their drawing). */
function Frame({ children }: { children: ReactNode }) {
  return (
    <ResponsiveContainer width="100%" height={240} initialDimension={{ width: 600, height: 240 }}>
      {children as React.ReactElement}
    </ResponsiveContainer>
  );
}

const axisProps = { tick: { fontSize: 12, fill: '#495057' }, stroke: '#868e96' };
// Room on the right for the last day's label.
const margin = { top: 8, right: 24, bottom: 0, left: 0 };
const yProps = { ...axisProps, interval: 0 } as const;

/**
 * Fixed tick intervals: with Recharts' default ('preserveEnd') it measures every tick's label in the
 * page to pick the ones that fit, which cost most of a 90-day dashboard's drawing time (layout after
 * layout); about 8 labels a chart fit at any width the grid gives it.
 */
function xDays(days: number) {
  return <XAxis dataKey="date" tickFormatter={formatAxisDay} {...axisProps} interval={Math.max(0, Math.ceil(days / 8) - 1)} />;
}

export function DailyCharts({ data }: { data: Analytics }) {
  const volume = data.conversationVolumeChartData;
  const rates = data.resolutionRateChartData;
  const response = data.responseTimeChartData;
  const csat = data.csatChartData;
  // A day without ratings has no average: a gap in the line, not a fall to 0.
  const csatLine = csat.map((d) => ({ ...d, averageCsatRating: d.ratings ? d.averageCsatRating : null }));
  return (
    <SimpleGrid cols={{ base: 1, lg: 2 }}>
      <ChartFrame
        title="Conversations per day"
        table={{
          columns: ['Day', 'Resolved', 'Escalated', 'Waiting for customer', 'Total'],
          rows: volume.map((d) => ({ key: d.date, cells: [formatDay(d.date), formatCount(d.resolved), formatCount(d.escalated), formatCount(d.waitingForCustomer), formatCount(d.resolved + d.escalated + d.waitingForCustomer)] })),
        }}
      >
        <Frame>
          <BarChart data={volume} accessibilityLayer={false} margin={margin}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            {xDays(volume.length)}
            <YAxis {...yProps} allowDecimals={false} tickFormatter={formatCount} width={48} />
            <Tooltip labelFormatter={(d) => formatDay(String(d))} formatter={(v) => formatCount(Number(v))} />
            <Legend />
            <Bar dataKey="resolved" name="Resolved" stackId="a" fill={COLORS.resolved} isAnimationActive={false} />
            <Bar dataKey="escalated" name="Escalated" stackId="a" fill={COLORS.escalated} isAnimationActive={false} />
            <Bar dataKey="waitingForCustomer" name="Waiting for customer" stackId="a" fill={COLORS.waiting} isAnimationActive={false} />
          </BarChart>
        </Frame>
      </ChartFrame>
      <ChartFrame
        title="AI resolution rate per day"
        table={{
          columns: ['Day', 'Resolution rate', 'Resolved', 'Conversations'],
          rows: rates.map((d) => ({ key: d.date, cells: [formatDay(d.date), formatPercent(d.aiResolutionRate), formatCount(d.resolved), formatCount(d.total)] })),
        }}
      >
        <Frame>
          <LineChart data={rates} accessibilityLayer={false} margin={margin}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            {xDays(volume.length)}
            <YAxis {...yProps} domain={[0, 1]} tickFormatter={formatPercent} width={48} />
            <Tooltip labelFormatter={(d) => formatDay(String(d))} formatter={(v) => formatPercent(Number(v))} />
            <Line dataKey="aiResolutionRate" name="AI resolution rate" stroke={COLORS.resolved} dot={false} strokeWidth={2} isAnimationActive={false} />
          </LineChart>
        </Frame>
      </ChartFrame>
      <ChartFrame
        title="First response time per day"
        table={{ columns: ['Day', 'Average first response time'], rows: response.map((d) => ({ key: d.date, cells: [formatDay(d.date), formatDuration(d.averageFirstResponseTimeMs)] })) }}
      >
        <Frame>
          <LineChart data={response} accessibilityLayer={false} margin={margin}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            {xDays(volume.length)}
            <YAxis {...yProps} tickFormatter={formatDuration} width={64} />
            <Tooltip labelFormatter={(d) => formatDay(String(d))} formatter={(v) => formatDuration(Number(v))} />
            <Line dataKey="averageFirstResponseTimeMs" name="Average first response time" stroke={COLORS.line} dot={false} strokeWidth={2} isAnimationActive={false} />
          </LineChart>
        </Frame>
      </ChartFrame>
      <ChartFrame
        title="Customer satisfaction per day"
        table={{
          columns: ['Day', 'Average rating', 'Rated 4 or 5', 'Ratings'],
          rows: csat.map((d) => ({ key: d.date, cells: [formatDay(d.date), formatRating(d.averageCsatRating), d.ratings ? formatPercent(d.csatPercentage) : '–', formatCount(d.ratings)] })),
        }}
      >
        <Frame>
          <LineChart data={csatLine} accessibilityLayer={false} margin={margin}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            {xDays(volume.length)}
            <YAxis {...yProps} domain={[0, 5]} ticks={[0, 1, 2, 3, 4, 5]} width={32} />
            <Tooltip labelFormatter={(d) => formatDay(String(d))} formatter={(v) => formatRating(Number(v))} />
            <Line dataKey="averageCsatRating" name="Average rating" stroke={COLORS.line} strokeWidth={2} isAnimationActive={false} />
          </LineChart>
        </Frame>
      </ChartFrame>
    </SimpleGrid>
  );
}
