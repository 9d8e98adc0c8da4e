// A bulk request whose jobs merge into the same articles (built-in engine, four jobs at once): fifty
// overlapping help-center pages (overlapping-pages.ts) end with every job COMPLETED, each article
// holds every fact its pages added, and its history has one version per merge, each keeping what
// the one before it said.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../support/app.js';
import { makeTenant } from '../support/factories.js';
import { type FakeSite, startFakeSite } from '../support/fake-site.js';
import { expectStatus } from '../support/security.js';
import { INGEST_ENV, ingestUrls, waitForSource } from '../support/sources.js';
import { pageHtml, TOPICS } from './overlapping-pages.js';
import { type Article, getArticle, makeArticle, makeFolder, queueBulk, ROBOTS_ALLOW_ALL, UPDATE, useApp, waitForJobs } from './support.js';

interface History {
  currentVersion: number;
  versions: { version: number }[];
}

describe('bulk generation into shared articles (built-in engine)', () => {
  let t: TestApp, site: FakeSite;
  useApp(
    async () => {
      const fakeSite = await startFakeSite({ '/robots.txt': ROBOTS_ALLOW_ALL });
      const app = await startTestApp({ work: true, env: { ...INGEST_ENV, PARLEY_KNOWLEDGE_CONCURRENCY: '4' } });
      return { t: app, site: fakeSite, close: async () => (await app.close(), await fakeSite.close()) };
    },
    (app) => ({ t, site } = app),
  );

  it('50 sources merging into 3 articles: every job COMPLETED, every fact merged, no version lost', async () => {
    const w = await makeTenant(t);
    const folder = await makeFolder(t, w.key, 'Help', 'Returns, shipping and payment');
    const articles = new Map<string, Article>();
    for (const topic of TOPICS) articles.set(topic.article.title, await makeArticle(t, w.key, folder, topic.article));
    const pages = TOPICS.flatMap((topic) => topic.pages.map((page) => ({ topic, page })));
    assert.equal(pages.length, 50);
    for (const { page } of pages) site.set(page.path, pageHtml(page));

    const { addedDocumentIds } = await ingestUrls(t, w.key, pages.map(({ page }) => site.url(page.path)));
    assert.equal(addedDocumentIds.length, 50);
    for (const id of addedDocumentIds) assert.equal((await waitForSource(t, w.key, id, undefined, 60_000)).linkedJobStatus, 'COMPLETED');

    const queued = await queueBulk(t, w.key, { documentIds: addedDocumentIds, isDraft: false });
    const jobs = await waitForJobs(t, w.key, queued.map((j) => j.backgroundJobId), 120_000);
    const failed = jobs.filter((j) => j.jobStatus !== 'COMPLETED');
    assert.deepEqual(failed.map((j) => j.error), [], `${jobs.length - failed.length} COMPLETED / ${failed.length} FAILED`);

    for (const topic of TOPICS) {
      const seeded = articles.get(topic.article.title)!;
      const ids = new Set(addedDocumentIds.filter((_, i) => pages[i]!.topic === topic));
      const own = jobs.filter((j) => ids.has(j.documentId!));
      assert.equal(own.length, topic.pages.length);
      for (const job of own) assert.deepEqual([job.linkedOperation, job.hcArticleId], [UPDATE, seeded.id], JSON.stringify(job));

      const merged = await getArticle(t, w.key, seeded.id);
      assert.equal(merged.title, topic.article.title);
      assert.ok(merged.mainKnowledge.startsWith(topic.article.mainKnowledge), merged.mainKnowledge);
      for (const { fact } of topic.pages) assert.ok(merged.mainKnowledge.includes(fact), `"${topic.article.title}" says "${fact}"`);

      // One version per merge, and each version keeps every fact of the one before it.
      const history = await expectStatus<History>(t, 200, 'GET', `/v2/hc-articles/${seeded.id}/history/public`, w.key);
      assert.equal(history.currentVersion, 1 + topic.pages.length);
      assert.deepEqual(history.versions.map((v) => v.version).sort((a, b) => a - b), Array.from({ length: history.currentVersion }, (_, i) => i + 1));
      let previous: string[] = [];
      for (let version = 1; version <= history.currentVersion; version++) {
        const at = await expectStatus<Article>(t, 200, 'POST', `/v2/hc-articles/${seeded.id}/history/public`, w.key, { version });
        const facts = topic.pages.map((p) => p.fact).filter((fact) => at.mainKnowledge.includes(fact));
        for (const fact of previous) assert.ok(facts.includes(fact), `version ${version} of "${topic.article.title}" lost "${fact}"`);
        assert.equal(facts.length, version - 1, `version ${version} adds one fact`);
        previous = facts;
      }
    }
  });
});
