// GET /v2/documents/public: ordering and keyset pagination (cursor, direction, ties, rows changing
// between pages).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TestApp } from '../support/app.js';
import { makeTenant, type Tenant } from '../support/factories.js';
import { assertError, expectStatus } from '../support/security.js';
import { addOneWeb, addWeb, idsOf, list, REFRESH, setSource, sortedIds, startAppWithoutWorkers, suffix } from './support.js';

describe('GET /v2/documents/public: ordering and pagination', () => {
  // No workers: records stay PENDING, so updatedAt changes only when the test changes it.
  let t: TestApp;
  before(async () => {
    t = await startAppWithoutWorkers();
  });
  after(() => t.close());

  const DAY = 86_400_000;
  const urlOf = (host: string, n: number) => `https://${host}/p${String(n).padStart(2, '0')}`;

  /**
   * Twelve records p01..p12 with updatedAt p01 < p02 < ... and ties: p04 = p05 = p06 (externalId
   * decides), p10 = p11, and p09 turned into a notion record with p08's externalId and
   * updatedAt (only the id decides). Returns the ids in the expected default order (desc).
   */
  async function orderedFixture(w: Tenant) {
    const host = `pages-${suffix()}.acme.test`;
    const byUrl = await addWeb(t, w.key, Array.from({ length: 12 }, (_, i) => urlOf(host, i + 1)));
    const p = (n: number) => byUrl.get(urlOf(host, n))!;
    const base = Date.now() - DAY;
    const at = (n: number) => new Date(base + n * 1000);
    const time: Record<number, Date> = {};
    for (let n = 1; n <= 12; n++) time[n] = at(n);
    time[5] = time[4]!;
    time[6] = time[4]!;
    time[11] = time[10]!;
    time[9] = time[8]!;
    for (let n = 1; n <= 12; n++) await setSource(t, p(n), { updatedAt: time[n] });
    await setSource(t, p(9), { source: 'notion', externalId: urlOf(host, 8), originalUrl: urlOf(host, 8), domain: null });
    const [hi, lo] = p(8) > p(9) ? [p(8), p(9)] : [p(9), p(8)];
    const desc = [p(12), p(11), p(10), hi, lo, p(7), p(6), p(5), p(4), p(3), p(2), p(1)];
    return { p, desc, host };
  }

  it('orders by updatedAt desc, then externalId desc, then id; order=asc reverses all three', async () => {
    const w = await makeTenant(t);
    const { desc } = await orderedFixture(w);
    const page = await list(t, w.key);
    assert.deepEqual(idsOf(page), desc);
    assert.equal(page.hasMore, false);
    assert.deepEqual(idsOf(await list(t, w.key, 'order=desc&direction=next')), desc);
    const asc = await list(t, w.key, 'order=asc');
    assert.deepEqual(idsOf(asc), [...desc].reverse());
    assert.equal(asc.hasMore, false);
    // The wire timestamps agree with the order.
    const stamps = page.documents.map((s) => Date.parse(s.updatedAt));
    assert.deepEqual(stamps, [...stamps].sort((a, b) => b - a));
  });

  it('pages forwards with cursor=<last id>&direction=next and back with cursor=<first id>&direction=previous', async () => {
    const w = await makeTenant(t);
    const { desc } = await orderedFixture(w);
    const p1 = await list(t, w.key, 'limit=5');
    assert.deepEqual(idsOf(p1), desc.slice(0, 5));
    assert.equal(p1.hasMore, true);
    const p2 = await list(t, w.key, `limit=5&cursor=${desc[4]}&direction=next`);
    assert.deepEqual(idsOf(p2), desc.slice(5, 10));
    assert.equal(p2.hasMore, true);
    // direction defaults to next.
    assert.deepEqual(idsOf(await list(t, w.key, `limit=5&cursor=${desc[4]}`)), desc.slice(5, 10));
    const p3 = await list(t, w.key, `limit=5&cursor=${desc[9]}&direction=next`);
    assert.deepEqual(idsOf(p3), desc.slice(10));
    assert.equal(p3.hasMore, false);

    const back2 = await list(t, w.key, `limit=5&cursor=${idsOf(p3)[0]}&direction=previous`);
    assert.deepEqual(idsOf(back2), idsOf(p2));
    assert.equal(back2.hasMore, true);
    const back1 = await list(t, w.key, `limit=5&cursor=${idsOf(back2)[0]}&direction=previous`);
    assert.deepEqual(idsOf(back1), idsOf(p1));
    assert.equal(back1.hasMore, false);

    // Both ends.
    const beforeFirst = await list(t, w.key, `limit=5&cursor=${desc[0]}&direction=previous`);
    assert.deepEqual(beforeFirst, { documents: [], hasMore: false });
    const afterLast = await list(t, w.key, `limit=5&cursor=${desc[11]}&direction=next`);
    assert.deepEqual(afterLast, { documents: [], hasMore: false });
    // A page that ends exactly at the last record says there is no more.
    const half = await list(t, w.key, `limit=6&cursor=${desc[5]}`);
    assert.deepEqual(idsOf(half), desc.slice(6));
    assert.equal(half.hasMore, false);
    const previousHalf = await list(t, w.key, `limit=6&cursor=${desc[6]}&direction=previous`);
    assert.deepEqual(idsOf(previousHalf), desc.slice(0, 6));
    assert.equal(previousHalf.hasMore, false);
  });

  it('pages through ties inside a page boundary without skipping or repeating (limit 1 walk)', async () => {
    const w = await makeTenant(t);
    const { desc } = await orderedFixture(w);
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 20; i++) {
      const page = await list(t, w.key, `limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...idsOf(page));
      assert.equal(page.hasMore, seen.length < desc.length, `hasMore after ${seen.length}`);
      if (!page.hasMore) break;
      cursor = idsOf(page).at(-1);
    }
    assert.deepEqual(seen, desc);
    // And backwards from the oldest record, one at a time.
    const back: string[] = [];
    cursor = desc.at(-1);
    for (let i = 0; i < 20; i++) {
      const page = await list(t, w.key, `limit=1&cursor=${cursor}&direction=previous`);
      back.unshift(...idsOf(page));
      if (!page.hasMore) break;
      cursor = idsOf(page)[0];
    }
    assert.deepEqual(back, desc.slice(0, -1));
  });

  it('pages in ascending order with order=asc, forwards and back', async () => {
    const w = await makeTenant(t);
    const { desc } = await orderedFixture(w);
    const asc = [...desc].reverse();
    const p1 = await list(t, w.key, 'order=asc&limit=5');
    assert.deepEqual(idsOf(p1), asc.slice(0, 5));
    assert.equal(p1.hasMore, true);
    const p2 = await list(t, w.key, `order=asc&limit=5&cursor=${asc[4]}&direction=next`);
    assert.deepEqual(idsOf(p2), asc.slice(5, 10));
    assert.equal(p2.hasMore, true);
    const p3 = await list(t, w.key, `order=asc&limit=5&cursor=${asc[9]}`);
    assert.deepEqual(idsOf(p3), asc.slice(10));
    assert.equal(p3.hasMore, false);
    const back = await list(t, w.key, `order=asc&limit=5&cursor=${asc[10]}&direction=previous`);
    assert.deepEqual(idsOf(back), asc.slice(5, 10));
    assert.equal(back.hasMore, true);
    const first = await list(t, w.key, `order=asc&limit=5&cursor=${asc[5]}&direction=previous`);
    assert.deepEqual(idsOf(first), asc.slice(0, 5));
    assert.equal(first.hasMore, false);
  });

  it('paginates a filtered listing, also from a cursor the filter leaves out', async () => {
    const w = await makeTenant(t);
    const { desc, p } = await orderedFixture(w);
    const web = desc.filter((id) => id !== p(9));
    const p1 = await list(t, w.key, 'source=web&limit=4');
    assert.deepEqual(idsOf(p1), web.slice(0, 4));
    assert.equal(p1.hasMore, true);
    const p2 = await list(t, w.key, `source=web&limit=4&cursor=${web[3]}`);
    assert.deepEqual(idsOf(p2), web.slice(4, 8));
    // p09 (notion) is not listed with source=web, but still marks a position.
    const from9 = await list(t, w.key, `source=web&cursor=${p(9)}`);
    assert.deepEqual(idsOf(from9), desc.slice(desc.indexOf(p(9)) + 1).filter((id) => id !== p(9)));
    const before9 = await list(t, w.key, `source=web&cursor=${p(9)}&direction=previous`);
    assert.deepEqual(idsOf(before9), desc.slice(0, desc.indexOf(p(9))));
    assert.equal(before9.hasMore, false);
  });

  it('returns 50 records by default, with hasMore, and the rest on the next page', async () => {
    const w = await makeTenant(t);
    const host = `many-${suffix()}.acme.test`;
    const urls = Array.from({ length: 55 }, (_, i) => urlOf(host, i + 1));
    const byUrl = await addWeb(t, w.key, urls);
    // One request, one timestamp: externalId (the URL) decides.
    const expected = [...urls].sort().reverse().map((u) => byUrl.get(u)!);
    const p1 = await list(t, w.key);
    assert.equal(p1.documents.length, 50);
    assert.equal(p1.hasMore, true);
    assert.deepEqual(idsOf(p1), expected.slice(0, 50));
    const p2 = await list(t, w.key, `cursor=${expected[49]}`);
    assert.deepEqual(idsOf(p2), expected.slice(50));
    assert.equal(p2.hasMore, false);
    const all = await list(t, w.key, 'limit=200');
    assert.deepEqual(idsOf(all), expected);
    assert.equal(all.hasMore, false);
  });

  it('stays consistent when rows are inserted and updated between pages', async () => {
    const w = await makeTenant(t);
    const host = `moving-${suffix()}.acme.test`;
    const byUrl = await addWeb(t, w.key, Array.from({ length: 10 }, (_, i) => urlOf(host, i + 1)));
    const q = (n: number) => byUrl.get(urlOf(host, n))!;
    const base = Date.now() - DAY;
    for (let n = 1; n <= 10; n++) await setSource(t, q(n), { updatedAt: new Date(base + n * 1000) });
    const desc = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1].map(q);

    const p1 = await list(t, w.key, 'limit=4');
    assert.deepEqual(idsOf(p1), desc.slice(0, 4));
    assert.equal(p1.hasMore, true);

    // Between pages: a new record, a refresh of one not yet seen (q04) and of one already seen (q09).
    const fresh = await addOneWeb(t, w.key, urlOf(host, 11));
    const accepted = await expectStatus<string[]>(t, 200, 'POST', REFRESH, w.key, { documentIds: [q(4), q(9)] });
    assert.deepEqual(accepted, [q(4), q(9)]);

    const p2 = await list(t, w.key, `limit=4&cursor=${idsOf(p1).at(-1)}&direction=next`);
    assert.deepEqual(idsOf(p2), [q(6), q(5), q(3), q(2)]);
    assert.equal(p2.hasMore, true);
    const p3 = await list(t, w.key, `limit=4&cursor=${idsOf(p2).at(-1)}&direction=next`);
    assert.deepEqual(idsOf(p3), [q(1)]);
    assert.equal(p3.hasMore, false);

    const seen = [...idsOf(p1), ...idsOf(p2), ...idsOf(p3)];
    assert.equal(new Set(seen).size, seen.length, 'no record is repeated');
    for (const n of [10, 8, 7, 6, 5, 3, 2, 1]) assert.equal(seen.filter((id) => id === q(n)).length, 1, `untouched q${n} seen once`);
    assert.ok(!seen.includes(fresh), 'the inserted record is at the front, not on later pages');
    assert.ok(!seen.includes(q(4)), 'the updated record moved to the front');

    // The front now holds the three touched records; going back from page 2 shows what precedes it now.
    const now = await list(t, w.key, 'limit=50');
    assert.deepEqual(sortedIds(idsOf(now).slice(0, 3)), sortedIds([fresh, q(4), q(9)]));
    assert.deepEqual(idsOf(now).slice(3), [10, 8, 7, 6, 5, 3, 2, 1].map(q));
    const back = await list(t, w.key, `limit=4&cursor=${idsOf(p2)[0]}&direction=previous`);
    const at = idsOf(now).indexOf(q(6));
    assert.deepEqual(idsOf(back), idsOf(now).slice(at - 4, at));
    assert.equal(back.hasMore, true);
  });

  // An id alone locates the cursor record where it is now; a record updated since the page was read
  // has moved to the front, so its updatedAt as seen (cursorUpdatedAt) pins where the page ended.
  it('continues from where the cursor row was with cursorUpdatedAt, even when that row was updated between pages', async () => {
    const w = await makeTenant(t);
    const host = `cursor-${suffix()}.acme.test`;
    const byUrl = await addWeb(t, w.key, Array.from({ length: 8 }, (_, i) => urlOf(host, i + 1)));
    const q = (n: number) => byUrl.get(urlOf(host, n))!;
    const base = Date.now() - DAY;
    for (let n = 1; n <= 8; n++) await setSource(t, q(n), { updatedAt: new Date(base + n * 1000) });
    const p1 = await list(t, w.key, 'limit=3');
    assert.deepEqual(idsOf(p1), [q(8), q(7), q(6)]);
    await expectStatus(t, 200, 'POST', REFRESH, w.key, { documentIds: [q(6)] });
    const seen = p1.documents[2]!.updatedAt;
    const p2 = await list(t, w.key, `limit=3&cursor=${q(6)}&cursorUpdatedAt=${encodeURIComponent(seen)}`);
    assert.deepEqual(idsOf(p2), [q(5), q(4), q(3)]);
    const back = await list(t, w.key, `limit=3&cursor=${q(5)}&direction=previous&cursorUpdatedAt=${encodeURIComponent(p2.documents[0]!.updatedAt)}`);
    // Going back from q5 shows what is newer now: the refreshed q6 first, then q8 and q7.
    assert.deepEqual(idsOf(back), [q(6), q(8), q(7)]);
    assert.equal(back.hasMore, false);
    // Without it, the id alone continues from the record's new place at the front.
    const moved = await list(t, w.key, `limit=3&cursor=${q(6)}`);
    assert.deepEqual(idsOf(moved), [q(8), q(7), q(5)]);
    assertError(await t.request('GET', `/v2/documents/public?cursorUpdatedAt=${encodeURIComponent(seen)}`, { key: w.key }), 400, /cursorUpdatedAt needs cursor/);
  });
});
