// The built-in engine's decisions: which operation a candidate text gets, and that a changed fact
// is not taken for a duplicate.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { draftArticle, type ArticleDraft } from '../../src/ai/builtin/article.js';
import { decide } from '../../src/ai/builtin/decide.js';
import type { ExistingArticle, FolderOption, KnowledgeOperation } from '../../src/ai/contracts/generate-knowledge.js';

describe('decide', () => {
  const ALL: KnowledgeOperation[] = ['ADD_ARTICLE_TO_FOLDER', 'UPDATE_ARTICLE', 'DO_NOTHING'];
  const draft: ArticleDraft = draftArticle({
    text: 'Refund policy\n\nYou can request a refund within 30 days of delivery. Refunds are paid to the original payment method within 5 business days.\n\nHow do I request a refund?\n\nOpen your order history, choose the order and press "Request refund".',
  });
  const article = (id: string, from: ArticleDraft, parentFolderId: string): ExistingArticle => ({ id, ...from, parentFolderId });
  const same = article('same', draft, 'f-refunds');
  const older = { ...same, id: 'older', mainKnowledge: 'You can request a refund within 14 days of delivery. Refunds are paid to the original payment method.' };
  const shipping = article('ship', draftArticle({ text: 'Shipping costs 5 euros in Germany and is free above 50 euros.', title: 'Shipping costs' }), 'f-shipping');
  const folders: FolderOption[] = [
    { id: 'f-shipping', path: ['Shipping'], description: 'Delivery times and costs.', articleTitles: ['Shipping costs'] },
    { id: 'f-refunds', path: ['Billing', 'Refunds'], description: 'Refunds and returns.', articleTitles: ['Refund policy'] },
  ];

  it('does nothing when an article already says the same', () => {
    assert.deepEqual(decide({ draft, candidates: [shipping, same], folders, allowed: ALL }), {
      operation: 'DO_NOTHING',
      articleId: 'same',
      folderId: null,
      reason: 'Already covered by "Refund policy": content similarity 1.00 (duplicate threshold 0.92), title similarity 1.00.',
    });
  });

  it("updates the source's own article", () => {
    assert.deepEqual(decide({ draft, candidates: [shipping, older], folders, allowed: ALL, linkedArticleId: 'ship' }), {
      operation: 'UPDATE_ARTICLE',
      articleId: 'ship',
      folderId: null,
      reason: 'This source already produced "Shipping costs" (match 0.02), so that article follows its new content.',
    });
    // A linked id that is not among the candidates is ignored.
    assert.equal(decide({ draft, candidates: [shipping, older], folders, allowed: ALL, linkedArticleId: 'gone' }).articleId, 'older');
  });

  it('updates the closest article above the threshold', () => {
    assert.deepEqual(decide({ draft, candidates: [shipping, older], folders, allowed: ALL }), {
      operation: 'UPDATE_ARTICLE',
      articleId: 'older',
      folderId: null,
      reason: 'Closest article "Refund policy" matches at 0.90 (update threshold 0.50).',
    });
  });

  it('adds to the most similar folder otherwise', () => {
    assert.deepEqual(decide({ draft, candidates: [shipping], folders, allowed: ALL }), {
      operation: 'ADD_ARTICLE_TO_FOLDER',
      articleId: null,
      folderId: 'f-refunds',
      reason: 'No existing article matches closely enough: the closest, "Shipping costs", matches at 0.02 (update threshold 0.50); adding it to folder "Billing > Refunds" (folder match 0.75).',
    });
    const twins: FolderOption[] = [
      { id: 'a', path: ['Misc'], description: '', articleTitles: [] },
      { id: 'b', path: ['Other'], description: '', articleTitles: [] },
    ];
    const tie = decide({ draft, candidates: [], folders: twins, allowed: ALL });
    assert.deepEqual(tie, {
      operation: 'ADD_ARTICLE_TO_FOLDER',
      articleId: null,
      folderId: 'a',
      reason: 'No existing article is a candidate; adding it to folder "Misc" (folder match 0.00).',
    });
  });

  it('falls back when the preferred operation is not allowed', () => {
    const check = (candidates: ExistingArticle[], allowed: KnowledgeOperation[], expected: object, list = folders) =>
      assert.deepEqual(decide({ draft, candidates, folders: list, allowed }), expected);
    // Preferred UPDATE → ADD, else DO_NOTHING.
    check([shipping, older], ['ADD_ARTICLE_TO_FOLDER', 'DO_NOTHING'], {
      operation: 'ADD_ARTICLE_TO_FOLDER',
      articleId: null,
      folderId: 'f-refunds',
      reason: 'Closest article "Refund policy" matches at 0.90 (update threshold 0.50), but updating an article is not allowed; adding it to folder "Billing > Refunds" (folder match 0.75) instead.',
    });
    check([shipping, older], ['DO_NOTHING'], {
      operation: 'DO_NOTHING',
      articleId: null,
      folderId: null,
      reason: 'Closest article "Refund policy" matches at 0.90 (update threshold 0.50), but updating an article is not allowed; doing nothing instead.',
    });
    // Preferred ADD → UPDATE of the best candidate, else DO_NOTHING.
    check([shipping], ['UPDATE_ARTICLE', 'DO_NOTHING'], {
      operation: 'UPDATE_ARTICLE',
      articleId: 'ship',
      folderId: null,
      reason: 'No existing article matches closely enough: the closest, "Shipping costs", matches at 0.02 (update threshold 0.50), but adding an article is not allowed; updating the closest article "Shipping costs" (match 0.02) instead.',
    });
    check([], ['UPDATE_ARTICLE', 'DO_NOTHING'], {
      operation: 'DO_NOTHING',
      articleId: null,
      folderId: null,
      reason: 'No existing article is a candidate, but adding an article is not allowed; doing nothing instead.',
    });
    // ADD without folders is impossible.
    check([shipping], ALL, {
      operation: 'UPDATE_ARTICLE',
      articleId: 'ship',
      folderId: null,
      reason: 'No existing article matches closely enough: the closest, "Shipping costs", matches at 0.02 (update threshold 0.50), but adding an article is not possible (no folder is available); updating the closest article "Shipping costs" (match 0.02) instead.',
    }, []);
    // Preferred DO_NOTHING → UPDATE of the duplicate, else ADD.
    check([same], ['UPDATE_ARTICLE', 'ADD_ARTICLE_TO_FOLDER'], {
      operation: 'UPDATE_ARTICLE',
      articleId: 'same',
      folderId: null,
      reason: 'Already covered by "Refund policy": content similarity 1.00 (duplicate threshold 0.92), title similarity 1.00, but doing nothing is not allowed; updating "Refund policy" (match 1.00) instead.',
    });
    check([same], ['ADD_ARTICLE_TO_FOLDER'], {
      operation: 'ADD_ARTICLE_TO_FOLDER',
      articleId: null,
      folderId: 'f-refunds',
      reason: 'Already covered by "Refund policy": content similarity 1.00 (duplicate threshold 0.92), title similarity 1.00, but doing nothing is not allowed; adding it to folder "Billing > Refunds" (folder match 0.75) instead.',
    });
  });

  it('answers an allowed operation with a null id when none is possible', () => {
    assert.deepEqual(decide({ draft, candidates: [], folders: [], allowed: ['ADD_ARTICLE_TO_FOLDER'] }), {
      operation: 'ADD_ARTICLE_TO_FOLDER',
      articleId: null,
      folderId: null,
      reason: 'No existing article is a candidate, but no allowed operation is possible (ADD_ARTICLE_TO_FOLDER: no folder is available).',
    });
    assert.deepEqual(decide({ draft, candidates: [], folders, allowed: ['UPDATE_ARTICLE'] }), {
      operation: 'UPDATE_ARTICLE',
      articleId: null,
      folderId: null,
      reason: 'No existing article is a candidate, but no allowed operation is possible (UPDATE_ARTICLE: no candidate article).',
    });
  });

  it('always answers one of the allowed operations', () => {
    const subsets: KnowledgeOperation[][] = [[ALL[0]!], [ALL[1]!], [ALL[2]!], [ALL[0]!, ALL[1]!], [ALL[0]!, ALL[2]!], [ALL[1]!, ALL[2]!], ALL];
    for (const allowed of subsets) {
      for (const candidates of [[], [shipping], [shipping, older], [same]]) {
        for (const list of [[], folders]) {
          const result = decide({ draft, candidates, folders: list, allowed });
          assert.ok(allowed.includes(result.operation), JSON.stringify({ allowed, result }));
          if (result.operation !== 'ADD_ARTICLE_TO_FOLDER') assert.equal(result.folderId, null);
          if (result.operation === 'ADD_ARTICLE_TO_FOLDER') assert.equal(result.articleId, null);
          assert.deepEqual(decide({ draft, candidates, folders: list, allowed }), result);
        }
      }
    }
  });
});

describe('decide: a changed fact is not a duplicate', () => {
  const body = 'You can return any unused item within 30 days of delivery for a full refund. Refunds are paid within 5 business days.';
  const article: ExistingArticle = { id: 'returns', title: 'Returns and refunds', mainKnowledge: body, questions: [], keywords: [], parentFolderId: 'f' };
  const folders: FolderOption[] = [{ id: 'f', path: ['Returns'], description: '', articleTitles: ['Returns and refunds'] }];
  const ALL: KnowledgeOperation[] = ['ADD_ARTICLE_TO_FOLDER', 'UPDATE_ARTICLE', 'DO_NOTHING'];

  it('the same text (up to case, spacing and punctuation) is already covered', () => {
    const draft = draftArticle({ text: body.toUpperCase().replace(/\./g, '!'), title: 'Returns and refunds' });
    assert.equal(decide({ draft, candidates: [article], folders, allowed: ALL, linkedArticleId: 'returns' }).operation, 'DO_NOTHING');
  });

  it('one number changed (30 -> 14 days) updates the linked article', () => {
    const draft = draftArticle({ text: body.replace('30 days', '14 days'), title: 'Returns and refunds' });
    const decision = decide({ draft, candidates: [article], folders, allowed: ALL, linkedArticleId: 'returns' });
    assert.equal(decision.operation, 'UPDATE_ARTICLE');
    assert.equal(decision.articleId, 'returns');
  });
});
