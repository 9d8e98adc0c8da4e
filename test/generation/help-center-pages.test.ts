// Bulk generation from crawled help-center pages (test/generation/pages.ts) through HTTP with the
// built-in engine: lists stay lists, questions are customers' questions, an index page is linked as
// DO_NOTHING with its reason, a workspace without folders fails every job saying so, and a
// published draft leaves `?type=draft`.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TestApp } from '../support/app.js';
import { makeTenant } from '../support/factories.js';
import type { FakeSite } from '../support/fake-site.js';
import { expectStatus } from '../support/security.js';
import { ADD, allArticles, type Article, assertJob, getArticle, getSource, ingestPage, linkOf, listArticles, makeFolder, NOTHING, queueBulk, startBuiltinApp, useApp, waitForJobs } from './support.js';
import { ACCOUNT_CATEGORY, HELP_HOME, RESET_PASSWORD, RETURN_ITEM } from './pages.js';

const ASKS = /^(?:how|what|why|when|where|who|which|can|could|do|does|is|are|should|will|would|did|have|has)\b/i;

describe('bulk generation from help-center pages (built-in engine)', () => {
  let t: TestApp, site: FakeSite;
  useApp(startBuiltinApp, (app) => ({ t, site } = app));

  const ingest = (key: string, path: string, html: string) => {
    site.set(path, html);
    return ingestPage(t, key, site.url(path));
  };

  it('drafts articles whose lists stay lists and links index pages as DO_NOTHING with the reason', async () => {
    const w = await makeTenant(t);
    const folder = await makeFolder(t, w.key, 'Account', 'Signing in, passwords and account settings');
    const reset = await ingest(w.key, '/hc/articles/101-reset-your-password', RESET_PASSWORD);
    const returns = await ingest(w.key, '/hc/articles/301-return-an-item', RETURN_ITEM);
    const category = await ingest(w.key, '/hc/categories/1-account-billing', ACCOUNT_CATEGORY);
    const home = await ingest(w.key, '/hc', HELP_HOME);

    const queued = await queueBulk(t, w.key, { documentIds: [reset.id, returns.id, category.id, home.id] });
    const [resetJob, returnsJob, categoryJob, homeJob] = await waitForJobs(t, w.key, queued.map((j) => j.backgroundJobId));

    for (const job of [resetJob!, returnsJob!]) {
      assertJob(job, {
        id: job.id, jobStatus: 'COMPLETED', hcArticleId: job.hcArticleId, origin: 'sources', documentId: job.documentId, hcEventId: null, isDraft: true, linkedOperation: ADD,
      }, /adding it to folder "Account"/);
    }
    const resetArticle = await getArticle(t, w.key, resetJob!.hcArticleId!);
    assert.equal(resetArticle.title, 'Reset your password');
    assert.equal(resetArticle.parentFolderId, folder);
    assert.match(resetArticle.mainKnowledge, /## Before you start\n\n- Check your spam folder\n- The link expires after 24 hours\n- Single sign-on accounts/);
    assert.match(resetArticle.mainKnowledge, /1\. On the sign-in page click Forgot password\?\n2\. Enter the email address/);
    assert.deepEqual(resetArticle.questions, ['How do I reset my password?']);
    const returnsArticle = await getArticle(t, w.key, returnsJob!.hcArticleId!);
    assert.match(returnsArticle.mainKnowledge, /## What you need\n\n- Your order number\n- The original packaging\n- A printed return label/);
    for (const question of [...resetArticle.questions, ...returnsArticle.questions]) assert.match(question, ASKS, question);

    for (const [job, source] of [[categoryJob!, category], [homeJob!, home]] as const) {
      assertJob(job, {
        id: job.id, jobStatus: 'COMPLETED', hcArticleId: null, origin: 'sources', documentId: source.id, hcEventId: null, isDraft: true, linkedOperation: NOTHING,
      }, /^An index page: it lists other articles \(\d+ of its \d+ lines are article titles, such as "[^"]+" and "[^"]+"\)/);
      assert.deepEqual(linkOf(await getSource(t, w.key, source.id)), { linkedKnowledgeId: null, linkedOperation: NOTHING, linkedReason: job.linkedReason, changed: false });
    }
    assert.match(categoryJob!.linkedReason!, /such as "Reset your password" and "Change the email address of your account"/);
    assert.deepEqual((await allArticles(t, w.key)).map((a) => a.id).sort(), [resetArticle.id, returnsArticle.id].sort(), 'no article from the index pages');
  });

  it('fails every job of a workspace without folders with a reason that says a folder is needed', async () => {
    const w = await makeTenant(t);
    const reset = await ingest(w.key, '/hc/articles/102-reset', RESET_PASSWORD);
    const returns = await ingest(w.key, '/hc/articles/302-returns', RETURN_ITEM);
    const queued = await queueBulk(t, w.key, { documentIds: [reset.id, returns.id] });
    const jobs = await waitForJobs(t, w.key, queued.map((j) => j.backgroundJobId));
    for (const job of jobs) {
      assertJob(job, {
        id: job.id, jobStatus: 'FAILED', hcArticleId: null, origin: 'sources', documentId: job.documentId, hcEventId: null, isDraft: true, linkedOperation: null,
        error: 'there is no active folder to add an article to; create a folder first',
      }, null);
    }
    assert.deepEqual(linkOf(await getSource(t, w.key, reset.id)), { linkedKnowledgeId: null, linkedOperation: null, linkedReason: null, changed: false });
    assert.deepEqual(await allArticles(t, w.key), []);

    // Once a folder exists the same sources are drafted.
    await makeFolder(t, w.key, 'Help', '');
    const again = await waitForJobs(t, w.key, (await queueBulk(t, w.key, { documentIds: [reset.id, returns.id] })).map((j) => j.backgroundJobId));
    assert.deepEqual(again.map((j) => [j.jobStatus, j.linkedOperation]), [['COMPLETED', ADD], ['COMPLETED', ADD]]);
  });

  it('lists a generated draft under ?type=draft until it is published', async () => {
    const w = await makeTenant(t);
    await makeFolder(t, w.key, 'Account', '');
    const reset = await ingest(w.key, '/hc/articles/103-reset', RESET_PASSWORD);
    const [job] = await waitForJobs(t, w.key, (await queueBulk(t, w.key, { documentIds: [reset.id] })).map((j) => j.backgroundJobId));
    const draftId = job!.hcArticleId!;
    assert.deepEqual((await listArticles(t, w.key, '&type=draft')).map((a) => a.id), [draftId]);
    const live = await expectStatus<Article>(t, 200, 'POST', `/v2/hc-articles/${draftId}/publish/public`, w.key, {});
    assert.deepEqual(await listArticles(t, w.key, '&type=draft'), [], 'a published draft is no open draft');
    assert.deepEqual((await listArticles(t, w.key, '&type=draft&isDraftPublished=true')).map((a) => a.id), [draftId]);
    assert.deepEqual((await listArticles(t, w.key, '&type=live')).map((a) => a.id), [live.id]);
  });
});
