// The five summary cards: the window's value, the previous window's, and the change with an arrow,
// a word and a colour (green when it went the good way: escalations and response time are better
// down; both shades meet 4.5:1 on white).
import { Group, Paper, SimpleGrid, Text } from '@mantine/core';
import type { Analytics } from '../api';
import { formatChange, formatCount, formatDuration, formatPercent, formatRating } from '../format';

type CardName = keyof Analytics['summaryCards'];

const CARDS: { name: CardName; title: string; format: (n: number) => string; higherIsBetter: boolean }[] = [
  { name: 'conversationVolume', title: 'Conversations', format: formatCount, higherIsBetter: true },
  { name: 'aiResolutionRate', title: 'AI resolution rate', format: formatPercent, higherIsBetter: true },
  { name: 'humanEscalationRate', title: 'Human escalation rate', format: formatPercent, higherIsBetter: false },
  { name: 'averageResponseTime', title: 'Average response time', format: formatDuration, higherIsBetter: false },
  { name: 'averageCsatRating', title: 'Average CSAT rating', format: formatRating, higherIsBetter: true },
];

export function SummaryCards({ data, comparisonLabel }: { data: Analytics; comparisonLabel: string }) {
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 5 }} component="ul" role="list" aria-label="Summary" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {CARDS.map(({ name, title, format, higherIsBetter }) => {
        const card = data.summaryCards[name];
        const direction = card.comparisonValue === 0 || Math.abs(card.change) < 0.0005 ? 0 : Math.sign(card.change);
        const good = direction === 0 ? undefined : direction > 0 === higherIsBetter;
        return (
          <Paper component="li" withBorder p="md" key={name} aria-label={title}>
            <Text size="sm" c="dimmed">
              {title}
            </Text>
            <Text fz={28} fw={700}>
              {format(card.value)}
            </Text>
            <Group gap={4} wrap="nowrap">
              <Text size="sm" fw={600} c={good === undefined ? 'dimmed' : good ? '#216e2e' : 'red.9'}>
                <span aria-hidden>{direction > 0 ? '▲ ' : direction < 0 ? '▼ ' : ''}</span>
                {formatChange(card.change, card.comparisonValue)}
              </Text>
            </Group>
            <Text size="xs" c="dimmed">
              {format(card.comparisonValue)} {comparisonLabel}
            </Text>
          </Paper>
        );
      })}
    </SimpleGrid>
  );
}
