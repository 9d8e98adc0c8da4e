import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readNote } from '../../src/ai/builtin/diagnose-note.js';

/**
 * The note reader of Refine with AI's built-in diagnosis, on notes written the way support leads
 * write them (written before the reader; another shop than the benches' help centers).
 */
const facts = (note: string, vocabulary?: string) => readNote(note, vocabulary).facts;

describe('reading a lead\'s note', () => {
  it('takes the fact of "X, not Y" and keeps Y as the old value', () => {
    const r = readNote('This is wrong: refunds are processed within 3 business days, not 10 days');
    assert.deepEqual(r.facts, ['Refunds are processed within 3 business days.']);
    assert.deepEqual(r.oldValues, ['10 days']);
    assert.deepEqual(readNote('we deliver within 2 hours, not 4').facts, ['We deliver within 2 hours.']);
    assert.deepEqual(readNote('we deliver within 2 hours, not 4').oldValues, ['4']);
  });

  it('drops lead-ins, praise and asides before the fact', () => {
    assert.deepEqual(facts('Heads up, we changed this in June: the bakery opens at 7 am on weekdays.'), ['The bakery opens at 7 am on weekdays.']);
    assert.deepEqual(facts('Good answer, but it should also say that cakes must be ordered 48 hours ahead.'), ['Cakes must be ordered 48 hours ahead.']);
    assert.deepEqual(facts('correct, but it should mention we also bake gluten-free bread'), ['We also bake gluten-free bread.']);
    assert.deepEqual(facts('Short and sweet, but the price is outdated: a loaf costs $6 since the spring.'), ['A loaf costs $6.']);
    assert.deepEqual(facts('Yes we do! Birthday cakes can be personalised with a name.'), ['Birthday cakes can be personalised with a name.']);
    assert.deepEqual(facts('FYI - delivery is free for orders over $40'), ['Delivery is free for orders over $40.']);
  });

  it('turns instructions to the agent into help-center text', () => {
    assert.deepEqual(facts('Also tell customers that the cake box is recyclable'), ['The cake box is recyclable.']);
    assert.deepEqual(facts('tell customers we cater weddings for up to 200 guests'), ['We cater weddings for up to 200 guests.']);
    assert.deepEqual(facts('the answer should say orders can be picked up from 8 am'), ['Orders can be picked up from 8 am.']);
    assert.deepEqual(facts('the answer should also say not to freeze the cream cakes'), ['Do not freeze the cream cakes.']);
    assert.deepEqual(facts('answer should say to bring the receipt'), ['Bring the receipt.']);
    assert.deepEqual(facts('pls add that the loyalty card is free'), ['The loyalty card is free.']);
    assert.deepEqual(facts('Fine, but say that vouchers expire after 6 months.'), ['Vouchers expire after 6 months.']);
  });

  it('reads terse notes and typos', () => {
    const terse = readNote('wrong - 2 to 3 days');
    assert.deepEqual(terse.facts, ['2 to 3 days.']);
    assert.equal(terse.terse, true);
    assert.deepEqual(facts('shuold say cakes are baked fresh every morning'), ['Cakes are baked fresh every morning.']);
    assert.deepEqual(facts('tel customers teh cafe has wifi'), ['The cafe has wifi.']);
    assert.deepEqual(facts('we do cake slicing for $2, customers can ask at the counter', 'cake slice counter'), ['We do cake slicing for $2, customers can ask at the counter.']);
    assert.deepEqual(facts('we do icing wraping for $3', 'wrap icing'), ['We do icing wrapping for $3.']);
  });

  it('drops a clause about the old value and keeps its value as the old one', () => {
    const r = readNote('vouchers dont expire anymore, the 1 year limit was dropped in februray');
    assert.deepEqual(r.facts, ['Vouchers do not expire.']);
    assert.deepEqual(r.oldValues, ['1 year']);
  });

  it('says what it did not understand, and never makes a fact of it', () => {
    const r = readNote('hmm no. Be friendlier.');
    assert.deepEqual(r.facts, []);
    assert.ok(r.warnings.some((w) => w.fragment.includes('Be friendlier')), JSON.stringify(r.warnings));
    const blank = readNote('?? not this');
    assert.deepEqual(blank.facts, []);
    assert.ok(blank.warnings.length > 0);
  });
});

describe('spelling repair against the question and the knowledge', () => {
  it('repairs a typo of a known word or its inflection, and leaves words and their inflections alone', async () => {
    const { repairWord } = await import('../../src/text/spelling.js');
    const known = new Set(['ship', 'wrap', 'delivery', 'bake']);
    assert.equal(repairWord('shipping', known), null);
    assert.equal(repairWord('wraping', known), 'wrapping');
    assert.equal(repairWord('delivrey', known), 'delivery');
    assert.equal(repairWord('baking', known), null);
    assert.equal(repairWord('shiping', known), 'shipping');
  });
});

describe('judgements around the fact', () => {
  it('drops "Wrong," and a judgement on its own', () => {
    assert.deepEqual(facts('Wrong, the family plan includes 6 seats.'), ['The family plan includes 6 seats.']);
    assert.deepEqual(facts('Not quite right. The café closes at 4 pm on Sundays.'), ['The café closes at 4 pm on Sundays.']);
    assert.deepEqual(readNote('Incorrect!').warnings.map((w) => w.fragment), ['Incorrect!']);
  });
});

describe('more notes as leads write them', () => {
  it('reads a bare value after "should be", "it\'s", "nope"', () => {
    const should = readNote('should be 3-5 days not 5-7');
    assert.deepEqual([should.facts, should.terse], [['3-5 days.'], true]);
    assert.deepEqual(readNote('nope, its 20% off now').facts, ['20% off.']);
    const now = readNote("it's 60 days now, not 30");
    assert.deepEqual([now.facts, now.oldValues, now.terse], [['60 days.'], ['30'], true]);
  });

  it('drops a judgement of the answer and a leading "since ..." aside', () => {
    assert.deepEqual(facts('The answer is outdated. Since April the fee is $4.99.'), ['The fee is $4.99.']);
    assert.deepEqual(facts('Great answer! Could also mention that we ship on Saturdays.'), ['We ship on Saturdays.']);
  });

  it('reads "you forgot to say ..."', () => {
    assert.deepEqual(facts('you forgot to say the warranty covers zips'), ['The warranty covers zips.']);
    assert.deepEqual(facts('The bot didn\'t mention that parking is free after 6 pm.'), ['Parking is free after 6 pm.']);
  });
});

// Written before the reader was changed for them: words meant for the agent, and the old value said
// beside the new one, are no part of what customers read.
describe('what customers never read', () => {
  it('drops a clause addressed to the agent after the fact', () => {
    assert.deepEqual(facts('Our bakery hotline is 555-0188, open 7 am to 3 pm - the bot should know this.'), ['Our bakery hotline is 555-0188, open 7 am to 3 pm.']);
    assert.deepEqual(facts('We deliver cakes on Sundays too, the assistant needs to mention it'), ['We deliver cakes on Sundays.']);
    assert.deepEqual(facts('Gift boxes cost $3. The agent must know that.'), ['Gift boxes cost $3.']);
  });

  it('keeps the old value said beside the new one out of the fact', () => {
    const r = readNote("Custom cakes need 72 hours notice, it's no longer 48 hours");
    assert.deepEqual([r.facts, r.oldValues], [['Custom cakes need 72 hours notice.'], ['48 hours']]);
    const anymore = readNote('Delivery is free over $30, not over $50 anymore');
    assert.deepEqual([anymore.facts, anymore.oldValues], [['Delivery is free over $30.'], ['$50']]);
  });

  it('leaves out what speaks to the team about keeping the knowledge', () => {
    const r = readNote("My bad, we forgot to update the FAQ when prices went up. A birthday cake now costs $45.");
    assert.deepEqual(r.facts, ['A birthday cake now costs $45.'], JSON.stringify(r));
    assert.equal(r.warnings.length, 1, JSON.stringify(r.warnings));
    assert.match(r.warnings[0]!.message, /^Left out: this part speaks to the team/, r.warnings[0]!.message);
    assert.deepEqual(facts("Someone changed the delivery page by mistake. We deliver within 10 miles of the shop."), ['We deliver within 10 miles of the shop.']);
    // A fact about the website is still a fact.
    assert.deepEqual(facts('Our website lists every cake with its allergens.'), ['Our website lists every cake with its allergens.']);
  });

  it('never makes a fact of a sentence that still speaks to the agent', () => {
    const r = readNote('The agent should know our wedding cake tastings.');
    assert.ok(r.facts.every((f) => !/\bagent\b|\bshould\b/i.test(f)), JSON.stringify(r.facts));
  });
});
