import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ExistingArticle, GenerationInput } from '../../src/ai/contracts/generate-knowledge.js';
import { generateKnowledgeTask } from '../../src/modules/generation/generation.tasks.js';

/** The built-in merge: an update of an article that is not the text's own source's article. */
function merge(mainKnowledge: string, text: string): string {
  return mergeWithReason(mainKnowledge, text).mainKnowledge;
}

function mergeWithReason(mainKnowledge: string, text: string): { mainKnowledge: string; reason: string } {
  const article: ExistingArticle = { id: 'a', title: 'Delivery', mainKnowledge, questions: [], keywords: [], parentFolderId: 'f' };
  const input: GenerationInput = {
    text,
    titleHint: 'Delivery',
    instructions: '',
    allowed: ['UPDATE_ARTICLE'],
    candidates: [article],
    folders: [],
    linkedArticleId: null,
  };
  const output = generateKnowledgeTask.builtin(input);
  assert.equal(output.operation, 'UPDATE_ARTICLE', output.reason);
  return { mainKnowledge: output.article!.mainKnowledge, reason: output.reason };
}

describe('built-in merge into an article', () => {
  it('revises a sentence whose figures changed and keeps every other sentence', () => {
    assert.equal(
      merge(
        'Standard delivery takes 2 business days. Our couriers call before they come.',
        'Standard delivery takes 3 business days. Our couriers call before they come.',
      ),
      'Standard delivery takes 3 business days. Our couriers call before they come.',
    );
  });

  it('replaces a changed fact stated in other words, for every kind of value, and says so in the reason', () => {
    const cases: [kind: string, article: string, text: string][] = [
      ['duration', 'Refunds are processed within 3 business days. Contact us for help.', 'We process refunds within 5 business days.'],
      ['amount', 'Shipping to Canada costs $15 per order. Contact us for help.', 'Each order shipped to Canada costs $20 in shipping.'],
      ['date', 'The summer sale ends on August 31. Contact us for help.', 'On September 15 the summer sale ends.'],
      ['count', 'The Starter plan includes 3 seats. Contact us for help.', 'From now on the Starter plan includes 5 seats.'],
      ['plan', 'Single sign-on is available on the Enterprise plan. Contact us for help.', 'Single sign-on is available on the Business plan.'],
      ['number word', 'The free trial lasts two weeks. Contact us for help.', 'The free trial now lasts three weeks.'],
    ];
    for (const [kind, article, text] of cases) {
      const { mainKnowledge, reason } = mergeWithReason(article, text);
      const [old] = article.split(' Contact');
      assert.equal(mainKnowledge, `${text} Contact us for help.`, kind);
      assert.ok(reason.endsWith(`Replaced: "${old}" with "${text}".`), `${kind}: ${reason}`);
    }
  });

  it('adds new facts under their heading instead of overwriting similar ones', () => {
    // "5 EUR in France" says what the article says; "9 EUR in Spain" is new.
    assert.equal(
      merge('Delivery costs 5 EUR.', '# France\n\nDelivery costs 5 EUR in France.\n\n# Spain\n\nDelivery costs 9 EUR in Spain.'),
      'Delivery costs 5 EUR.\n\n## Spain\n\nDelivery costs 9 EUR in Spain.',
    );
  });

  it('keeps a different rule that only looks alike', () => {
    assert.equal(
      merge('Refunds for digital goods are not available.', 'Refunds for gift cards are not available.'),
      'Refunds for digital goods are not available.\n\nRefunds for gift cards are not available.',
    );
  });

  it('adds a table whole, as a table', () => {
    const merged = merge('Standard shipping takes 3 days.', 'Shipping options\n\nOption | Time | Price\n\nStandard | 3 days | free\n\nExpress | 1 day | 9 EUR');
    assert.equal(merged, 'Standard shipping takes 3 days.\n\n## Shipping options\n\n| Option | Time | Price |\n| --- | --- | --- |\n| Standard | 3 days | free |\n| Express | 1 day | 9 EUR |');
  });

  it('takes $ in the text literally', () => {
    assert.equal(
      merge("The Pro plan costs 10 USD per month ($' is the currency).", "The Pro plan costs 12 USD per month ($' is the currency)."),
      "The Pro plan costs 12 USD per month ($' is the currency).",
    );
  });
});
