import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { backend } from '../support/database.js';
import { type FakeSite, html, startFakeSite } from '../support/fake-site.js';
import { poll } from '../support/poll.js';
import { firstKey, freePort, type Proc, processTestEnv, spawnScript, stop } from '../support/processes.js';

// Two real `parley serve` processes (each an API and a worker) on one PostgreSQL: a key's rate
// limit and a site's politeness hold for the two together. Embedded mode cannot run two processes
// on one data folder; its limits are per process (rate-limit.test.ts, crawler.test.ts).

const PAGES = 16;
const PAGE_MS = 600;
const DELAY_MS = 200;
const ANSWER_MAX = 10;

interface Arrival {
  at: number;
  agent: string;
}

describe('limits across processes', { skip: backend !== 'postgres' && 'two processes need PostgreSQL', timeout: 180_000 }, () => {
  let env: Record<string, string | undefined>;
  let cleanup: () => Promise<void>;
  let site: FakeSite;
  const servers: { proc: Proc; base: string }[] = [];
  let key: string;
  const arrivals: Arrival[] = [];
  let inFlight = 0;
  let peak = 0;

  before(async () => {
    ({ env, cleanup } = await processTestEnv('parley-limits-', {
      PARLEY_FETCH_ALLOW_PRIVATE: 'true',
      PARLEY_RATE_LIMIT_ANSWER_MAX: String(ANSWER_MAX),
      PARLEY_INGEST_PER_HOST: '2',
      PARLEY_INGEST_HOST_DELAY_MS: String(DELAY_MS),
      // Each worker runs at most 4 of the 16 jobs at once, so both take their share.
      PARLEY_INGEST_CONCURRENCY: '4',
    }));
    site = await startFakeSite();
    for (let i = 0; i < PAGES; i += 1) {
      site.set(`/page-${i}`, {
        handle: async (req, res) => {
          arrivals.push({ at: Date.now(), agent: String(req.headers['user-agent']) });
          inFlight += 1;
          peak = Math.max(peak, inFlight);
          await sleep(PAGE_MS);
          inFlight -= 1;
          res.writeHead(200, { 'content-type': 'text/html' }).end(html(`Page ${i}`, `The text of page ${i}, fetched politely by one of two workers.`));
        },
      });
    }
    for (const name of ['A', 'B']) {
      const port = await freePort();
      // Each process says who it is in its User-Agent, so the site sees which one fetched a page.
      const proc = spawnScript('src/main.ts', ['serve', '--port', String(port)], { ...env, PARLEY_FETCH_USER_AGENT: `ParleyTest-${name}` });
      servers.push({ proc, base: `http://127.0.0.1:${port}` });
      await proc.waitForOutput(/Server listening/);
      key ??= await firstKey(proc, env);
    }
  });
  after(async () => {
    for (const { proc } of servers) await stop(proc, 'SIGKILL');
    await site?.close();
    await cleanup?.();
  });

  it("gives a key its answering budget once over both API processes, then 429 with Retry-After from either", async () => {
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const answers = await Promise.all(
      Array.from({ length: 3 * ANSWER_MAX }, (_, i) =>
        fetch(`${servers[i % 2]!.base}/v2/hc-interactions/events/public`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ content: 'Where is my order?', interactionId: randomUUID() }),
        }),
      ),
    );
    const counted = answers.filter((r) => r.status !== 429);
    assert.equal(counted.length, ANSWER_MAX, `statuses: ${answers.map((r) => r.status).join(', ')}`);
    for (const r of counted) assert.equal(r.status, 404, 'an unknown conversation, counted');
    const refused = answers.map((r, i) => ({ r, server: i % 2 })).filter(({ r }) => r.status === 429);
    assert.deepEqual([...new Set(refused.map(({ server }) => server))].sort(), [0, 1], 'both processes refuse');
    for (const { r } of refused) {
      const retryAfter = Number(r.headers.get('retry-after'));
      assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
      assert.deepEqual(await r.json(), {
        statusCode: 429,
        message: `rate limit of ${ANSWER_MAX} requests per 1 minute exceeded; retry later`,
        error: 'Too Many Requests',
      });
    }
    // The management routes keep their own budget.
    assert.equal((await fetch(`${servers[1]!.base}/v2/workspace/public`, { headers })).status, 200);
  });

  it('keeps a site at 2 requests at once and 200 ms between starts while two workers ingest its pages', async () => {
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const links = Array.from({ length: PAGES }, (_, i) => site.url(`/page-${i}`));
    const added = await fetch(`${servers[0]!.base}/v2/documents/public`, { method: 'POST', headers, body: JSON.stringify({ documentIdsToAdd: links }) });
    assert.equal(added.status, 202, await added.text());
    await poll(
      () => ({ arrived: arrivals.length, inFlight }),
      (s) => s.arrived === PAGES && s.inFlight === 0,
      { what: 'every page fetched once', timeoutMs: 120_000, intervalMs: 200 },
    );
    assert.deepEqual([...new Set(arrivals.map((a) => a.agent))].sort(), ['ParleyTest-A', 'ParleyTest-B'], 'both workers fetched pages');
    assert.equal(peak, 2, 'never more than PARLEY_INGEST_PER_HOST requests at once over both workers');
    const starts = arrivals.map((a) => a.at).sort((a, b) => a - b);
    const gaps = starts.slice(1).map((s, i) => s - starts[i]!);
    // Starts are reserved 200 ms apart on the database's clock; an arrival here is later by a
    // process's round trip and connection, which differ a little from request to request. The span
    // is what the workers guarantee together, and no two requests arrive together.
    assert.ok(starts.at(-1)! - starts[0]! >= (PAGES - 1) * DELAY_MS - 50, `gaps: ${gaps.join(', ')}`);
    assert.ok(gaps.every((gap) => gap >= DELAY_MS / 2), `gaps: ${gaps.join(', ')}`);
  });
});
