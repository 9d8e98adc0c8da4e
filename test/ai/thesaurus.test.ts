// The support thesaurus (src/text/thesaurus.ts): which groups customers' words name, what search
// adds to their questions, and what it leaves alone.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { conceptsOf, queryExpansion, SYNONYM_GROUPS } from '../../src/text/thesaurus.js';

const groupOf = (word: string) => SYNONYM_GROUPS.findIndex((g) => g[0] === word);
const names = (text: string) => [...conceptsOf(text).groups].map((g) => SYNONYM_GROUPS[g]![0]).sort();

describe('support thesaurus', () => {
  it('finds what customers mean in their own words, phrases included', () => {
    assert.deepEqual(names('How do I stop my monthly coffee deliveries?'), ['cancel', 'delivery']);
    assert.deepEqual(names('When will I actually see the money back on my card?'), ['refund']);
    assert.deepEqual(names('i want to send back what i bought'), ['order', 'return']);
    assert.deepEqual(names('where r my bills'), ['invoice']);
    assert.deepEqual(names('pls close my account'), ['delete']);
    assert.deepEqual(names('cant log in'), ['sign in']);
    assert.deepEqual(names('How do I sign up?'), ['sign up']);
  });

  it('adds the one-word synonyms a question does not say, never its own words or a phrase\'s parts', () => {
    const stop = queryExpansion('How do I stop my monthly coffee deliveries?').split(' ');
    assert.ok(stop.includes('cancel') && stop.includes('shipping'));
    assert.ok(!stop.includes('stop') && !stop.includes('call') && !stop.includes('off'));
    assert.deepEqual(queryExpansion('money back please').split(' ').slice(0, 1), ['refund']);
    assert.ok(!queryExpansion('i want to send back my shoes').split(' ').some((w) => w === 'give' || w === 'back' || w === 'take'));
  });

  it('leaves words alone that mean something else in support', () => {
    assert.equal(queryExpansion('what is the status of my order').includes('track'), false);
    assert.equal(queryExpansion('Is the gift card reusable?'), '');
    assert.deepEqual(names('sign the contract'), []);
  });

  it('marks each word of a phrase with its group', () => {
    const { byStem } = conceptsOf('I want my money back');
    assert.deepEqual([...(byStem.get('money') ?? [])], [groupOf('refund')]);
    assert.deepEqual([...(byStem.get('back') ?? [])], [groupOf('refund')]);
  });
});
