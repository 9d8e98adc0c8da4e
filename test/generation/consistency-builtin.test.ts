// Knowledge generation stays consistent with what else happens to the knowledge base (built-in
// engine): an article merged into keeps what a human wrote, a source's unreviewed draft is revised
// rather than repeated, and deleting a folder unlinks its sources.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type TestApp, startTestApp } from '../support/app.js';
import { makeTenant } from '../support/factories.js';
import { type FakeSite, html, startFakeSite } from '../support/fake-site.js';
import { expectStatus } from '../support/security.js';
import { INGEST_ENV, ingestUrls, type Source, waitForSource } from '../support/sources.js';
import { type Article, bulkJob, getArticle, getSource, linkOf, listArticles, makeArticle, makeFolder, page, PAYOUT, ROBOTS_ALLOW_ALL, WINDOW } from './support.js';

describe('generation consistency (built-in engine)', () => {
  let t: TestApp;
  let site: FakeSite;
  before(async () => {
    t = await startTestApp({ work: true, env: INGEST_ENV });
    site = await startFakeSite({ '/robots.txt': ROBOTS_ALLOW_ALL });
  });
  after(async () => {
    await t?.close();
    await site?.close();
  });

  const ingest = async (key: string, path: string, body: string): Promise<string> => {
    site.set(path, body);
    const { addedDocumentIds } = await ingestUrls(t, key, [site.url(path)]);
    const [id] = addedDocumentIds as [string];
    assert.equal((await waitForSource(t, key, id)).linkedJobStatus, 'COMPLETED');
    return id;
  };
  /** The page changes: refresh and wait until the source is flagged changed. */
  const change = async (key: string, id: string, path: string, body: string): Promise<void> => {
    site.set(path, body);
    assert.deepEqual(await expectStatus<string[]>(t, 200, 'POST', '/v2/documents/public/refresh', key, { documentIds: [id] }), [id]);
    const source = await waitForSource(t, key, id, (s) => s.linkedJobStatus === 'COMPLETED' && s.changed);
    assert.equal(source.changed, true);
  };

  it('a page that states a changed fact in other words replaces the old statement instead of adding a contradiction, and the job says so', async () => {
    const w = await makeTenant(t);
    const folder = await makeFolder(t, w.key, 'Refunds', 'Refunds and payouts');
    const hand = await makeArticle(t, w.key, folder, {
      title: 'Refunds',
      mainKnowledge: 'Refunds are processed within 3 business days. Refunds go back to the original payment method.',
      questions: ['How long does a refund take?'],
      keywords: ['refund'],
    });
    const id = await ingest(w.key, '/help/refund-times', page('Refunds', 'We process refunds within 5 business days.', 'Refunds go back to the original payment method.'));
    const job = await bulkJob(t, w.key, { documentIds: [id], isDraft: true });
    assert.equal(job.jobStatus, 'COMPLETED', job.error);
    assert.equal(job.linkedOperation, 'UPDATE_ARTICLE', job.linkedReason ?? '');
    assert.match(job.linkedReason ?? '', /Replaced: "Refunds are processed within 3 business days\." with "We process refunds within 5 business days\."\.$/);
    const draft = await getArticle(t, w.key, job.hcArticleId!);
    assert.equal(draft.originalArticleId, hand.id);
    assert.equal(draft.mainKnowledge, 'We process refunds within 5 business days. Refunds go back to the original payment method.');
  });

  it('a source merged into a hand-written article revises its changed figure and keeps what the human wrote', async () => {
    const w = await makeTenant(t);
    const folder = await makeFolder(t, w.key, 'Returns', 'Returning items and refunds');
    const humanText = [
      'Gift cards cannot be returned.',
      'For a damaged item, email care@shop.test with a photo of it and we send a prepaid label.',
      'Sale items can only be exchanged for store credit.',
    ].join(' ');
    const hand = await makeArticle(t, w.key, folder, {
      title: 'Returns and refunds',
      mainKnowledge: `${WINDOW(30)} ${PAYOUT} ${humanText}`,
      questions: ['Can I return a gift card?'],
      keywords: ['gift card'],
    });
    const id = await ingest(w.key, '/help/returns', page('Returns and refunds', WINDOW(30), PAYOUT));

    // Job 1: the source is merged into the hand-written article, live.
    const first = await bulkJob(t, w.key, { documentIds: [id], isDraft: false });
    assert.equal(first.jobStatus, 'COMPLETED', first.error);
    assert.equal(first.linkedOperation, 'UPDATE_ARTICLE', first.linkedReason ?? '');
    assert.equal(first.hcArticleId, hand.id);
    const merged = await getArticle(t, w.key, hand.id);
    assert.equal(merged.version, 2);
    assert.equal(merged.mainKnowledge, hand.mainKnowledge, 'the article already said every sentence of the page');
    assert.equal(merged.questions[0], 'Can I return a gift card?');
    assert.deepEqual(merged.misc, {}, 'a merge does not make the source the article’s own');

    // The page changes (30 -> 14 days) and is regenerated live.
    await change(w.key, id, '/help/returns', page('Returns and refunds', WINDOW(14), PAYOUT));
    const second = await bulkJob(t, w.key, { documentIds: [id], isDraft: false });
    assert.equal(second.jobStatus, 'COMPLETED', second.error);
    assert.equal(second.linkedOperation, 'UPDATE_ARTICLE', second.linkedReason ?? '');
    assert.equal(second.hcArticleId, hand.id);

    const revised = await getArticle(t, w.key, hand.id);
    assert.equal(revised.version, 3);
    assert.equal(revised.title, 'Returns and refunds');
    assert.equal(revised.mainKnowledge, `${WINDOW(14)} ${PAYOUT} ${humanText}`, 'only the figure changed; the human sentences stay');
    assert.deepEqual(revised.questions, merged.questions);
    assert.equal(revised.questions[0], 'Can I return a gift card?');
    assert.equal(revised.keywords[0], 'gift card');
    assert.equal((await listArticles(t, w.key)).length, 1, 'no other article or draft');

    assert.deepEqual(linkOf(await getSource(t, w.key, id)), {
      linkedKnowledgeId: hand.id,
      linkedOperation: 'UPDATE_ARTICLE',
      linkedReason: second.linkedReason,
      changed: false,
    });
  });

  it("a second change of a source before its draft is reviewed revises that draft, not a second one", async () => {
    const w = await makeTenant(t);
    const folder = await makeFolder(t, w.key, 'Returns', 'Returning items and refunds');
    const id = await ingest(w.key, '/help/own-returns', page('Returns and refunds', WINDOW(30), PAYOUT));

    const made = await bulkJob(t, w.key, { documentIds: [id], isDraft: false });
    assert.equal(made.jobStatus, 'COMPLETED', made.error);
    assert.equal(made.linkedOperation, 'ADD_ARTICLE_TO_FOLDER');
    const live = await getArticle(t, w.key, made.hcArticleId!);
    assert.equal(live.parentFolderId, folder);
    assert.equal(live.isDraft, false);
    assert.deepEqual(live.misc, { knowledgeJobId: made.id, sourceId: id });
    assert.ok(live.mainKnowledge.includes(WINDOW(30)), live.mainKnowledge);

    // First change (30 -> 14 days): a draft of the live article.
    await change(w.key, id, '/help/own-returns', page('Returns and refunds', WINDOW(14), PAYOUT));
    const firstUpdate = await bulkJob(t, w.key, { documentIds: [id], isDraft: true });
    assert.equal(firstUpdate.jobStatus, 'COMPLETED', firstUpdate.error);
    assert.equal(firstUpdate.linkedOperation, 'UPDATE_ARTICLE');
    const draftId = firstUpdate.hcArticleId!;
    assert.notEqual(draftId, live.id);
    const draft = await getArticle(t, w.key, draftId);
    assert.equal(draft.isDraft, true);
    assert.equal(draft.originalArticleId, live.id);
    assert.equal(draft.mainKnowledge, live.mainKnowledge.replace(WINDOW(30), WINDOW(14)));

    // Second change (14 -> 7 days) before the draft is reviewed: the same draft is revised.
    await change(w.key, id, '/help/own-returns', page('Returns and refunds', WINDOW(7), PAYOUT));
    const secondUpdate = await bulkJob(t, w.key, { documentIds: [id], isDraft: true });
    assert.equal(secondUpdate.jobStatus, 'COMPLETED', secondUpdate.error);
    assert.equal(secondUpdate.linkedOperation, 'UPDATE_ARTICLE');
    assert.equal(secondUpdate.hcArticleId, draftId, 'the open draft is revised');
    const revised = await getArticle(t, w.key, draftId);
    assert.equal(revised.isDraft, true);
    assert.equal(revised.isDraftPublished, false);
    assert.equal(revised.originalArticleId, live.id);
    assert.equal(revised.mainKnowledge, live.mainKnowledge.replace(WINDOW(30), WINDOW(7)), 'the newest figure');
    // The draft keeps the record of the job that made it.
    assert.deepEqual(revised.misc, { knowledgeJobId: firstUpdate.id, sourceId: id });

    const drafts = await listArticles(t, w.key, '&type=draft');
    assert.deepEqual(
      drafts.map((d) => [d.id, d.originalArticleId, d.isDraftPublished]),
      [[draftId, live.id, false]],
      'one open draft of the live article',
    );
    const unchanged = await getArticle(t, w.key, live.id);
    assert.equal(unchanged.version, live.version, 'the live article waits for the review');
    assert.equal(unchanged.mainKnowledge, live.mainKnowledge);
    assert.deepEqual(linkOf(await getSource(t, w.key, id)), {
      linkedKnowledgeId: live.id,
      linkedOperation: 'UPDATE_ARTICLE',
      linkedReason: secondUpdate.linkedReason,
      changed: false,
    });
  });

  it('a draft a reviewer edited is kept as it is; the next change makes a new draft', async () => {
    const w = await makeTenant(t);
    await makeFolder(t, w.key, 'Returns', 'Returning items and refunds');
    const id = await ingest(w.key, '/help/reviewed-returns', page('Returns and refunds', WINDOW(30), PAYOUT));
    const made = await bulkJob(t, w.key, { documentIds: [id], isDraft: false });
    assert.equal(made.jobStatus, 'COMPLETED', made.error);
    const live = await getArticle(t, w.key, made.hcArticleId!);

    await change(w.key, id, '/help/reviewed-returns', page('Returns and refunds', WINDOW(14), PAYOUT));
    const first = await bulkJob(t, w.key, { documentIds: [id], isDraft: true });
    const draft = await getArticle(t, w.key, first.hcArticleId!);
    const edit = { ...draft, mainKnowledge: `${draft.mainKnowledge}\n\nREVIEWER NOTE: check with the warehouse.`, agentInstruction: 'Be polite' };
    const reviewed = await expectStatus<Article>(t, 200, 'PUT', `/v2/hc-articles/${draft.id}/public`, w.key, {
      title: edit.title, mainKnowledge: edit.mainKnowledge, agentInstruction: edit.agentInstruction,
      questions: edit.questions, keywords: edit.keywords, escalation: false,
    });

    await change(w.key, id, '/help/reviewed-returns', page('Returns and refunds', WINDOW(7), PAYOUT));
    const second = await bulkJob(t, w.key, { documentIds: [id], isDraft: true });
    assert.equal(second.jobStatus, 'COMPLETED', second.error);
    assert.notEqual(second.hcArticleId, draft.id, 'a new draft, not the reviewed one');
    const kept = await getArticle(t, w.key, draft.id);
    assert.equal(kept.mainKnowledge, reviewed.mainKnowledge);
    assert.equal(kept.agentInstruction, 'Be polite');
    assert.equal(kept.version, reviewed.version);
    const fresh = await getArticle(t, w.key, second.hcArticleId!);
    assert.equal(fresh.originalArticleId, live.id);
    assert.equal(fresh.mainKnowledge, live.mainKnowledge.replace(WINDOW(30), WINDOW(7)));
  });

  it('deleting a folder with cascade unlinks the sources whose article was in it', async () => {
    const w = await makeTenant(t);
    const returnsFolder = await makeFolder(t, w.key, 'Returns and refunds', 'Returning items, refunds and exchanges');
    const shippingFolder = await makeFolder(t, w.key, 'Shipping and delivery', 'Delivery times, carriers and shipping costs');
    const returnsId = await ingest(w.key, '/help/cascade-returns', html('Returns and refunds', WINDOW(30), PAYOUT));
    const shippingId = await ingest(
      w.key,
      '/help/cascade-shipping',
      html('Shipping times', 'Orders placed before 2 pm ship the same day from our warehouse in Lyon.', 'Standard delivery takes 3 to 5 business days within France.'),
    );
    const returnsJob = await bulkJob(t, w.key, { documentIds: [returnsId], isDraft: false });
    const shippingJob = await bulkJob(t, w.key, { documentIds: [shippingId], isDraft: false });
    for (const job of [returnsJob, shippingJob]) {
      assert.equal(job.jobStatus, 'COMPLETED', job.error);
      assert.equal(job.linkedOperation, 'ADD_ARTICLE_TO_FOLDER');
    }
    assert.equal((await getArticle(t, w.key, returnsJob.hcArticleId!)).parentFolderId, returnsFolder);
    assert.equal((await getArticle(t, w.key, shippingJob.hcArticleId!)).parentFolderId, shippingFolder);
    // The returns page changes, so its source is flagged before the delete.
    await change(w.key, returnsId, '/help/cascade-returns', html('Returns and refunds', WINDOW(14), PAYOUT));

    const deleted = await expectStatus<{ id: string }>(t, 200, 'DELETE', `/v2/hc-folders/${returnsFolder}/public?cascade=true`, w.key);
    assert.equal(deleted.id, returnsFolder);

    assert.deepEqual(await expectStatus<Article[]>(t, 200, 'POST', '/v2/hc-articles/ids/public', w.key, { articleIds: [returnsJob.hcArticleId] }), []);
    assert.deepEqual(linkOf(await getSource(t, w.key, returnsId)), { linkedKnowledgeId: null, linkedOperation: null, linkedReason: null, changed: false });
    assert.deepEqual(linkOf(await getSource(t, w.key, shippingId)), {
      linkedKnowledgeId: shippingJob.hcArticleId,
      linkedOperation: 'ADD_ARTICLE_TO_FOLDER',
      linkedReason: shippingJob.linkedReason,
      changed: false,
    });
    const changed = await expectStatus<{ documents: Source[] }>(t, 200, 'GET', '/v2/documents/public?changed=true', w.key);
    assert.deepEqual(changed.documents, []);
  });
});
