// Agent analytics (GET /v2/bots/{id}/hc-analytics/public) with exact numbers on a hand-built set of
// conversations on a frozen clock: every card and chart, filters and pairs of them, a time zone
// across a daylight-saving change, empty and comparison windows, input checks, 404 and 406.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Clock } from '../../src/clock.js';
import { SYSTEM_TAG_IDS } from '../../src/modules/tags/index.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { makeTenant } from '../support/factories.js';
import { assertError, expectStatus, type SecuredRouteRow, securitySuites } from '../support/security.js';
import { type Event, feedbackOf, say, type Setup, setupAgent } from './support.js';

interface Analytics {
  summary: Record<string, number>;
  comparisonSummary: Record<string, number>;
  summaryCards: Record<string, { value: number; comparisonValue: number; change: number }>;
  statusBreakdown: { status: string; count: number; percentage: number }[];
  usageByChannel: { channel: string; conversations: number; resolved: number }[];
  conversationVolumeChartData: { date: string; resolved: number; escalated: number; waitingForCustomer: number }[];
  resolutionRateChartData: { date: string; total: number; resolved: number; aiResolutionRate: number }[];
  responseTimeChartData: { date: string; averageFirstResponseTimeMs: number }[];
  knowledgeUsage: { current: { folderId: string; folderTitle: string; conversations: number }[]; comparison: unknown[] };
  ruleAnalytics: unknown[];
  escalationReasons: { tagId: string; tagName: string; count: number }[];
  hourlyVolume: number[][];
  csatChartData: { date: string; ratings: number; averageCsatRating: number; csatPercentage: number }[];
}

const HOUR = 3600_000;
const BASE = Date.parse('2026-03-07T12:00:00Z');
const epoch = (iso: string) => Math.floor(Date.parse(iso) / 1000);
const WINDOW = `startEpoch=${epoch('2026-03-07T00:00:00Z')}&endEpoch=${epoch('2026-03-10T00:00:00Z')}`;

describe('agent analytics', () => {
  let t: TestApp;
  let s: Setup;
  let now = BASE;
  const clock: Clock = { now: () => new Date(now) };
  const path = (query: string, agentId = s.agentId) => `/v2/bots/${agentId}/hc-analytics/public?${query}`;
  const get = (query: string) => expectStatus<Analytics>(t, 200, 'GET', path(query), s.w.readKey);
  const at = async (offsetHours: number, content: string, extra: Record<string, unknown> = {}) => {
    now = BASE + offsetHours * HOUR;
    return (await say(t, s.w.key, { content, botId: s.agentId, ...extra })) as [Event, Event];
  };

  before(async () => {
    t = await startTestApp({ clock, env: { PARLEY_ASSUMED_RESOLUTION_HOURS: '24' } });
    s = await setupAgent(t);
    const [, r1] = await at(0, 'How do I reset my password?');
    await expectStatus(t, 200, 'POST', feedbackOf(r1.id), s.w.key, { csatRating: 5, resolved: true });
    const [, r2] = await at(1, 'Can my cat catch the flu from me?');
    await expectStatus(t, 200, 'POST', feedbackOf(r2.id), s.w.key, { csatRating: 1 });
    await at(13, 'How do I export an invoice as PDF?', { metadata: { channel: 'email' } });
    const [, r4] = await at(36, 'I want to talk to a real person');
    await expectStatus(t, 200, 'POST', feedbackOf(r4.id), s.w.key, { csatRating: 2, resolved: false });
    await at(38, 'How do I reset my password?');
    now = BASE + 40 * HOUR;
  });
  after(() => t.close());

  it('summarises the window: confirmed and assumed resolutions, escalations, response time, CSAT', async () => {
    const a = await get(WINDOW);
    assert.deepEqual(a.summary, {
      totalConversations: 5, resolvedConversations: 2, escalatedConversations: 1, waitingForCustomerConversations: 1,
      aiResolutionRate: 0.4, humanEscalationRate: 0.2, averageResponseTimeMs: 1, averageCsatRating: 2.67,
      confirmedResolvedConversations: 1, assumedResolvedConversations: 1,
    });
    assert.equal(a.comparisonSummary.totalConversations, 0);
    assert.deepEqual(a.summaryCards.conversationVolume, { value: 5, comparisonValue: 0, change: 0 });
    assert.deepEqual(a.summaryCards.averageCsatRating, { value: 2.67, comparisonValue: 0, change: 0 });
    assert.deepEqual(a.statusBreakdown, [
      { status: 'Waiting for Customer', count: 1, percentage: 0.2 },
      { status: 'Resolved by AI', count: 2, percentage: 0.4 },
      { status: 'Escalated to Human Agent', count: 1, percentage: 0.2 },
      { status: 'Unresolved', count: 1, percentage: 0.2 },
      { status: 'No Reply', count: 0, percentage: 0 },
    ]);
    assert.deepEqual(a.usageByChannel, [{ channel: 'chat', conversations: 4, resolved: 1 }, { channel: 'email', conversations: 1, resolved: 1 }]);
    assert.deepEqual(a.conversationVolumeChartData, [
      { date: '2026-03-07', resolved: 1, escalated: 1, waitingForCustomer: 0 },
      { date: '2026-03-08', resolved: 1, escalated: 0, waitingForCustomer: 0 },
      { date: '2026-03-09', resolved: 0, escalated: 0, waitingForCustomer: 1 },
    ]);
    assert.deepEqual(a.resolutionRateChartData.map((d) => [d.date, d.total, d.resolved, d.aiResolutionRate]), [['2026-03-07', 2, 1, 0.5], ['2026-03-08', 1, 1, 1], ['2026-03-09', 2, 0, 0]]);
    assert.deepEqual(a.responseTimeChartData.map((d) => d.averageFirstResponseTimeMs), [1, 1, 1]);
    assert.deepEqual(a.knowledgeUsage, { current: [{ folderId: s.folderId, folderTitle: 'Help center', conversations: 3 }], comparison: [] });
    assert.deepEqual(a.escalationReasons, [{ tagId: SYSTEM_TAG_IDS.missing_knowledge, tagName: 'missing_knowledge', count: 1 }]);
    assert.deepEqual(a.ruleAnalytics, []);
    assert.equal(a.hourlyVolume.length, 7);
    assert.ok(a.hourlyVolume.every((row) => row.length === 24));
    assert.deepEqual([a.hourlyVolume[6]![12], a.hourlyVolume[6]![13], a.hourlyVolume[0]![1], a.hourlyVolume[1]![0], a.hourlyVolume[1]![2]], [1, 1, 1, 1, 1]);
    assert.equal(a.hourlyVolume.flat().reduce((x, y) => x + y, 0), 5);
    assert.deepEqual(a.csatChartData, [
      { date: '2026-03-07', ratings: 2, averageCsatRating: 3, csatPercentage: 0.5 },
      { date: '2026-03-08', ratings: 0, averageCsatRating: 0, csatPercentage: 0 },
      { date: '2026-03-09', ratings: 1, averageCsatRating: 2, csatPercentage: 0 },
    ]);
  });

  it('groups days and hours in the time zone, across a daylight-saving change', async () => {
    const a = await get(`${WINDOW}&timezone=America/New_York`);
    assert.deepEqual(a.resolutionRateChartData.map((d) => [d.date, d.total]), [['2026-03-06', 0], ['2026-03-07', 3], ['2026-03-08', 2], ['2026-03-09', 0]]);
    // 12:00Z is 07:00 EST on Saturday; 00:00Z on Monday is 20:00 EDT on Sunday (after the change).
    assert.deepEqual([a.hourlyVolume[6]![7], a.hourlyVolume[6]![8], a.hourlyVolume[6]![20], a.hourlyVolume[0]![20], a.hourlyVolume[0]![22]], [1, 1, 1, 1, 1]);
    const k = await get(`${WINDOW}&timezone=Asia/Kolkata`);
    assert.deepEqual(k.resolutionRateChartData.map((d) => [d.date, d.total]), [['2026-03-07', 2], ['2026-03-08', 1], ['2026-03-09', 2], ['2026-03-10', 0]]);
  });

  it('filters, alone and in pairs', async () => {
    const total = async (query: string) => (await get(`${WINDOW}&${query}`)).summary.totalConversations;
    assert.equal(await total('channel=email'), 1);
    assert.equal(await total('channel=email&channel=chat'), 5);
    assert.equal(await total('latestStatus=Unresolved'), 1);
    assert.equal(await total('latestStatus=Unresolved,Escalated%20to%20Human%20Agent'), 2);
    assert.equal(await total('csatRatings=1&csatRatings=2'), 2);
    assert.equal(await total(`usedSubfolderIds=${s.folderId}`), 3);
    assert.equal(await total(`tagIds=${SYSTEM_TAG_IDS.missing_knowledge}`), 1);
    assert.equal(await total(`escalationReasonTagIds=${SYSTEM_TAG_IDS.customer_request}`), 1);
    assert.equal(await total('source=replay'), 0);
    assert.equal(await total('source=all'), 5);
    assert.equal(await total('latestSentiment=neutral'), 5);
    assert.equal(await total(`ruleIds=${SYSTEM_TAG_IDS.other}`), 0);
    assert.equal(await total('channel=chat&latestStatus=Escalated%20to%20Human%20Agent'), 1);
    assert.equal(await total(`channel=email&usedSubfolderIds=${s.folderId}`), 1);
    assert.equal(await total('csatRatings=5&latestStatus=Resolved%20by%20AI'), 1);
  });

  it('combines every two filters as both at once', async () => {
    // The five conversations of the set (in order) and the filter values each one matches.
    const matches: [string, number[]][] = [
      ['channel=email', [3]],
      ['channel=chat', [1, 2, 4, 5]],
      ['latestStatus=Resolved%20by%20AI', [1]],
      ['latestStatus=Escalated%20to%20Human%20Agent', [2]],
      ['latestStatus=Unresolved', [4]],
      ['latestStatus=Waiting%20for%20Customer', [3, 5]],
      ['csatRatings=5', [1]],
      ['csatRatings=1', [2]],
      ['csatRatings=2', [4]],
      [`usedSubfolderIds=${s.folderId}`, [1, 3, 5]],
      [`tagIds=${SYSTEM_TAG_IDS.missing_knowledge}`, [2]],
      [`escalationReasonTagIds=${SYSTEM_TAG_IDS.customer_request}`, [4]],
      ['latestSentiment=neutral', [1, 2, 3, 4, 5]],
      ['latestSentiment=negative', []],
      ['source=api', [1, 2, 3, 4, 5]],
      ['timezone=Asia/Tokyo', [1, 2, 3, 4, 5]],
    ];
    const name = (query: string) => query.split('=')[0];
    let pairs = 0;
    for (const [i, [a, inA]] of matches.entries()) {
      for (const [b, inB] of matches.slice(i + 1)) {
        if (name(a) === name(b)) continue;
        const expected = inA.filter((n) => inB.includes(n)).length;
        assert.equal((await get(`${WINDOW}&${a}&${b}`)).summary.totalConversations, expected, `${a} & ${b}`);
        pairs++;
      }
    }
    assert.ok(pairs > 90);
  });

  it('compares with the window before, and answers zeros for an empty window', async () => {
    const later = await get(`startEpoch=${epoch('2026-03-10T00:00:00Z')}&endEpoch=${epoch('2026-03-13T00:00:00Z')}`);
    assert.equal(later.summary.totalConversations, 0);
    assert.equal(later.summary.averageCsatRating, 0);
    assert.equal(later.comparisonSummary.totalConversations, 5);
    assert.deepEqual(later.summaryCards.conversationVolume, { value: 0, comparisonValue: 5, change: -1 });
    assert.deepEqual(later.knowledgeUsage.comparison, [{ folderId: s.folderId, folderTitle: 'Help center', conversations: 3 }]);
    assert.equal(later.conversationVolumeChartData.length, 3);
    // Milliseconds are accepted as the older deployed routes send them.
    const ms = await get(`startEpoch=${Date.parse('2026-03-07T00:00:00Z')}&endEpoch=${Date.parse('2026-03-10T00:00:00Z')}`);
    assert.equal(ms.summary.totalConversations, 5);
  });

  it('refuses bad parameters naming them; 404 for an unknown agent, 406 for another workspace\'s', async () => {
    const fail = async (query: string, status: number, message: RegExp, agentId?: string) => assertError(await t.request('GET', path(query, agentId), { key: s.w.readKey }), status, message);
    await fail(`endEpoch=${epoch('2026-03-10T00:00:00Z')}`, 400, /^query\.startEpoch: /);
    await fail(`startEpoch=${epoch('2026-03-10T00:00:00Z')}&endEpoch=${epoch('2026-03-07T00:00:00Z')}`, 400, /^query\.startEpoch: startEpoch must be before endEpoch/);
    await fail(`startEpoch=0&endEpoch=${epoch('2026-03-10T00:00:00Z')}`, 400, /^query\.endEpoch: the window is at most 366 days/);
    await fail(`${WINDOW}&csatRatings=6`, 400, /^query\.csatRatings/);
    await fail(`${WINDOW}&tagIds=nope`, 400, /^query\.tagIds/);
    await fail(`${WINDOW}&timezone=Mars/Base`, 400, /^query\.timezone: unknown time zone/);
    await fail(`${WINDOW}&channel=fax`, 400, /^query\.channel/);
    await fail(WINDOW, 404, /agent not found/, '00000000-0000-4000-8000-000000000000');
    const other = await setupAgent(t, await makeTenant(t));
    await fail(WINDOW, 406, /different workspace/, other.agentId);
  });

});

// On the real clock: key expiry is judged by the app's clock.
describe('agent analytics security', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());
  const routes: SecuredRouteRow[] = [
    ['analytics', 'GET', 'read', async (app, o) => ({ path: `/v2/bots/${(await setupAgent(app, o)).agentId}/hc-analytics/public?${WINDOW}` }), 406],
  ];
  securitySuites(() => t, routes);
});
