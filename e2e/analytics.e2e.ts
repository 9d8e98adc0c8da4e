// The Analytics dashboard over a seeded week of conversations: its cards, a breakdown, a heatmap cell
// and a chart's table view against the route's own answer (fetched here from Node with the window
// the page asked for), then a new window and a filter, a reload of the shared address, an empty
// window, and the accessibility check.
//
// Conversations backdated over a week cannot be made through Generate Answer (it stamps them with
// the time they arrive), so this file starts a server of its own on a PGlite data folder seeded
// first with the analytics bench's generator (bench/analytics-data.ts), as crawl.e2e.ts starts its own.
import type { Page } from '@playwright/test';
import { type AnalyticsIds, seedAnalyticsServer } from '../bench/analytics-data.js';
import { type RunningServer, tempDataDir } from '../bench/support.js';
import { checkPage, expect, signIn, test as base } from './fixtures.js';

type Analytics = {
  startEpoch: number;
  endEpoch: number;
  timezone: string;
  summaryCards: Record<string, { value: number; comparisonValue: number; change: number }>;
  statusBreakdown: { status: string; count: number }[];
  usageByChannel: { channel: string; conversations: number }[];
  conversationVolumeChartData: { date: string; resolved: number; escalated: number; waitingForCustomer: number }[];
  hourlyVolume: number[][];
};

const test = base.extend<object, { seeded: { server: RunningServer; ids: AnalyticsIds } }>({
  seeded: [
    async ({}, use) => {
      const data = await tempDataDir('parley-e2e-analytics-');
      const env = { PARLEY_DATA_DIR: data.path, PARLEY_LOG_LEVEL: 'warn', PARLEY_RATE_LIMIT_MAX: '100000' };
      const { server, ids } = await seedAnalyticsServer({ env, dataDir: data.path, conversations: 1_400, days: 7 });
      await use({ server, ids });
      await server.stop();
      await data.remove();
    },
    { scope: 'worker', timeout: 240_000 },
  ],
  baseURL: async ({ seeded }, use) => {
    await use(seeded.server.url);
  },
});

// The browser's time zone is the dashboard's default: a zone other than the server's shows it is the browser's.
test.use({ timezoneId: 'Europe/Berlin' });

const count = (n: number) => n.toLocaleString('en-US');
const percent = (n: number) => new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 }).format(n);

/** Runs `action` and answers the route's answer to the dashboard's next request, asked again from Node with the same query. */
async function routeAfter(page: Page, server: RunningServer, action: () => Promise<unknown>): Promise<{ query: URLSearchParams; body: Analytics }> {
  const [request] = await Promise.all([page.waitForRequest((r) => r.url().includes('/hc-analytics/public')), action()]);
  const url = new URL(request.url());
  const response = await fetch(`${server.url}${url.pathname}${url.search}`, { headers: { authorization: `Bearer ${server.apiKey}` } });
  expect(response.status, `the route answers ${url.search}`).toBe(200);
  return { query: url.searchParams, body: (await response.json()) as Analytics };
}

async function pick(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

const card = (page: Page, name: string) => page.getByRole('list', { name: 'Summary' }).getByRole('listitem', { name });

test('the dashboard reads a seeded week as the route does, follows the window and filters, and keeps them in the address', async ({ page, seeded }) => {
  test.setTimeout(120_000);
  const { server, ids } = seeded;
  await signIn(page, server.apiKey);

  // The last 7 days in the browser's zone: 7 whole Berlin days ending at the coming midnight.
  let { query, body } = await routeAfter(page, server, () => page.goto(`/console/analytics/${ids.agentId}?days=7`));
  expect(query.get('timezone'), 'the browser time zone is the default').toBe('Europe/Berlin');
  await expect(page.getByRole('combobox', { name: 'Time zone' })).toHaveValue('Europe/Berlin');
  const hours = (Number(query.get('endEpoch')) - Number(query.get('startEpoch'))) / 3600;
  expect(hours, 'a 7-day window (one hour more or less across a daylight-saving change)').toBeGreaterThanOrEqual(167);
  expect(hours).toBeLessThanOrEqual(169);
  const volume = body.summaryCards.conversationVolume!.value;
  expect(volume, 'the seeded week has conversations in the window').toBeGreaterThan(1000);

  await expect(card(page, 'Conversations'), 'the card shows the route\'s count').toContainText(count(volume));
  await expect(card(page, 'Conversations')).toContainText(`${count(body.summaryCards.conversationVolume!.comparisonValue)} the 7 days before`);
  await expect(card(page, 'AI resolution rate')).toContainText(percent(body.summaryCards.aiResolutionRate!.value));
  await expect(card(page, 'Human escalation rate')).toContainText(percent(body.summaryCards.humanEscalationRate!.value));
  await expect(card(page, 'Average response time'), 'a duration in units').toContainText(/^Average response time[\d.]+ s/);

  // A breakdown: each status's count.
  const byStatus = page.getByRole('table', { name: 'By status' });
  for (const { status, count: n } of body.statusBreakdown) {
    await expect(byStatus.getByRole('row', { name: new RegExp(`^${status} `) }), `${status} in the status breakdown`).toContainText(count(n));
  }
  // A heatmap cell: the busiest hour, named by weekday and hour.
  const weekdays = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
  const max = Math.max(...body.hourlyVolume.flat());
  const day = body.hourlyVolume.findIndex((row) => row.includes(max));
  const hour = body.hourlyVolume[day]!.indexOf(max);
  const cellName = `${weekdays[day]} ${String(hour).padStart(2, '0')}:00: ${count(max)} conversations`;
  await expect(page.getByRole('cell', { name: cellName }), 'the busiest hour in the heatmap').toBeVisible();
  await expect(page.getByRole('cell', { name: cellName })).toHaveAttribute('title', cellName);

  // A chart's table view: the daily volume.
  const daily = page.getByRole('region', { name: 'Conversations per day' });
  await daily.getByRole('button', { name: 'Show as table' }).click();
  const busiest = [...body.conversationVolumeChartData].sort((a, b) => b.resolved - a.resolved)[0]!;
  const dayLabel = new Date(`${busiest.date}T00:00:00Z`).toLocaleDateString('en-US', { timeZone: 'UTC', weekday: 'short', month: 'short', day: 'numeric' });
  await expect(daily.getByRole('table', { name: 'Conversations per day' }).getByRole('row', { name: new RegExp(`^${dayLabel} `) }), `the row of ${busiest.date}`).toHaveText(
    [dayLabel, count(busiest.resolved), count(busiest.escalated), count(busiest.waitingForCustomer), count(busiest.resolved + busiest.escalated + busiest.waitingForCustomer)].join(''),
  );
  await daily.getByRole('button', { name: 'Show as chart' }).click();
  await checkPage(page, 'analytics-dashboard');

  // Another window: the last 30 days (the week is all in it, the 30 days before are empty).
  ({ query, body } = await routeAfter(page, server, () => pick(page, 'Window', 'Last 30 days')));
  await expect(card(page, 'Conversations')).toContainText(count(body.summaryCards.conversationVolume!.value));
  await expect(card(page, 'Conversations'), 'nothing to compare with').toContainText('No earlier data');

  // Filters: every source (replays of Refine with AI are left out by default): the whole seeded week.
  await page.getByRole('button', { name: 'Filters' }).click();
  ({ query, body } = await routeAfter(page, server, () => pick(page, 'Source', 'All sources')));
  expect(body.summaryCards.conversationVolume!.value, 'the whole seeded week').toBe(1_400);
  await expect(card(page, 'Conversations')).toContainText(count(1_400));
  // Then email only; the address keeps the filters and the window.
  ({ query, body } = await routeAfter(page, server, () => pick(page, 'Channel', 'Email')));
  expect(query.getAll('channel'), 'the channel filter is sent').toEqual(['email']);
  const email = body.summaryCards.conversationVolume!.value;
  expect(email, 'email is a part of the conversations').toBeLessThan(1_400);
  await expect(card(page, 'Conversations')).toContainText(count(email));
  await expect(page.getByRole('table', { name: 'By channel' }).getByRole('row', { name: /^Email / })).toContainText(count(email));
  // The last 30 days are the default window and Berlin the browser's zone: neither is written.
  await expect(page).toHaveURL(new RegExp(`/console/analytics/${ids.agentId}\\?source=all&channel=email$`));

  // A filter whose values are fetched when the filters open: one intent rule (each seeded conversation ran at most one).
  ({ query, body } = await routeAfter(page, server, () => pick(page, 'Intent rules', 'Rule 0')));
  expect(query.getAll('ruleIds'), 'the rule filter is sent by id').toEqual([ids.rules[0]]);
  await expect(card(page, 'Conversations')).toContainText(count(body.summaryCards.conversationVolume!.value));
  await expect(page.getByRole('table', { name: 'Intent rules' }).getByRole('row'), 'the header and Rule 0 alone').toHaveCount(2);
  await expect(page.getByRole('table', { name: 'Intent rules' }).getByRole('row', { name: /^Rule 0 / })).toBeVisible();

  // Another time zone, then a reload of the address shows the same.
  ({ query, body } = await routeAfter(page, server, async () => {
    await page.getByRole('combobox', { name: 'Time zone' }).fill('America/New_York');
    await page.getByRole('option', { name: 'America/New_York', exact: true }).click();
  }));
  expect(query.get('timezone')).toBe('America/New_York');
  ({ query, body } = await routeAfter(page, server, () => page.reload()));
  expect(query.get('timezone'), 'the reload keeps the time zone').toBe('America/New_York');
  expect(query.getAll('channel'), 'and the filter').toEqual(['email']);
  await expect(card(page, 'Conversations')).toContainText(count(body.summaryCards.conversationVolume!.value));
  await expect(page.getByRole('form', { name: 'Filters' }), 'the filters open with the address\'s').toContainText('Email');

  // An empty window says so.
  await routeAfter(page, server, () => page.goto(`/console/analytics/${ids.agentId}?from=2020-01-06&to=2020-01-12`));
  await expect(page.getByText('No conversations in this window.')).toBeVisible();
  await expect(card(page, 'Conversations')).toContainText('0');

  // From the agent's page.
  await page.goto(`/console/agents/${ids.agentId}`);
  await routeAfter(page, server, () => page.getByRole('link', { name: 'Analytics of this agent' }).click());
  await expect(page).toHaveURL(new RegExp(`/console/analytics/${ids.agentId}$`));
});

test("another agent: the folder filter (the first agent's folders) is dropped, the account's filters stay", async ({ page, seeded }) => {
  const { server, ids } = seeded;
  const created = await fetch(`${server.url}/v2/bots/public`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Second agent' }),
  });
  expect(created.status, 'the second agent is created').toBe(201);
  const other = (await created.json()) as { id: string };
  await signIn(page, server.apiKey);
  await routeAfter(page, server, () => page.goto(`/console/analytics/${ids.agentId}?channel=email&usedSubfolderIds=${ids.folders[0]}&ruleIds=${ids.rules[0]}`));
  const { query } = await routeAfter(page, server, () => pick(page, 'Agent', 'Second agent'));
  expect(query.getAll('usedSubfolderIds'), "the first agent's folder is not sent for the second").toEqual([]);
  expect(query.getAll('channel'), 'the channel filter stays').toEqual(['email']);
  expect(query.getAll('ruleIds'), 'rules are the account\'s: the rule filter stays').toEqual([ids.rules[0]]);
  await expect(page).toHaveURL(new RegExp(`/console/analytics/${other.id}\\?channel=email&ruleIds=${ids.rules[0]}$`));
});
