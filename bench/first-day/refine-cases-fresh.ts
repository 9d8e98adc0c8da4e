// A fresh held-out part of the first-day set's Refine with AI cases (bench/first-day/run.ts): the
// notes a support lead writes under a bad answer, in the forms leads write them ("X, not Y", a
// lead-in before the fact, praise then the missing fact, "tell customers that ...", "the answer
// should say ...", terse, typos, a new fact no article covers).
//
// Against the help center of refine-cases.ts (ARTICLES): the runner (refine.ts) builds every case's
// help center from it, so a case can only name its articles. None of these notes repeats a fact the
// tuned or held-out cases of refine-cases.ts correct or add: here the articles' express shipping
// price ($15, now $12), exchange window (30 days, now 60), refund time (5 business days, now 3),
// weekday closing time (7 pm, now 8 pm), largest gift card ($500, now $1,000) and points value
// (100 points for $5, now $10) have changed, two answers leave out a fact their article holds, and
// two notes bring a subject no article covers.
//
// Written blind: without running the set or reading the engine. Every case is held out: nobody
// tunes an engine on them.
import type { ExpectedChange, RefineCase } from './refine-cases.js';

const update = (article: string): ExpectedChange => ({ kind: 'article_update', article });
const answer = (article: string): ExpectedChange => ({ kind: 'answer_or_prompt', article });
const NEW: ExpectedChange = { kind: 'new_article' };

export const FRESH_REFINE_CASES: RefineCase[] = [
  // The article states an old fact: it is corrected.
  {
    id: 'fresh-express-price-x-not-y',
    heldOut: true,
    forms: ['X, not Y', '"now"', 'no lead-in'],
    question: 'How much does express shipping cost?',
    note: 'Express shipping is $12 now, not $15.',
    expected: update('shipping'),
    states: [/\$12\b/],
    notStates: [/\$15\b/],
    paraphrase: 'What do I pay to get my order in 2 days?',
    leaks: [/not \$15/i],
  },
  {
    id: 'fresh-exchange-window-lead-in',
    heldOut: true,
    forms: ['lead-in (an apology to the team)', 'fact last', 'no old value named'],
    question: 'Can I still exchange a fleece I got 5 weeks ago for a smaller size?',
    note: "Ok this one's on us, nobody updated the page after the spring change. Exchanges are accepted for 60 days after delivery.",
    expected: update('exchanges'),
    states: [/\b60 days\b/i],
    notStates: [/\b30 days\b/i],
    paraphrase: 'How long after delivery can I swap something for another size?',
    leaks: [/nobody updated/i, /spring change/i],
  },
  {
    id: 'fresh-refund-time-terse',
    heldOut: true,
    forms: ['terse', 'lower case', 'dash', 'subject not named'],
    question: 'How long until I get my money back after I return something?',
    note: 'wrong - 3 business days',
    expected: update('returns'),
    states: [/\b(3|three) business days\b/i],
    notStates: [/\b(5|five) business days\b/i],
    paraphrase: 'When will the refund for my returned boots show up on my card?',
  },
  {
    id: 'fresh-closing-time-tell-customers',
    heldOut: true,
    forms: ['"tell customers that"', '"now"', 'no old value named'],
    question: 'What time do your stores close on weekdays?',
    note: 'Tell customers that all our stores now stay open until 8 pm Monday to Saturday.',
    expected: update('stores'),
    states: [/\b8 ?pm\b/i],
    notStates: [/\b7 ?pm\b/i],
    paraphrase: 'Can I still shop at the Boulder store at half past seven on a Thursday evening?',
  },
  {
    id: 'fresh-gift-card-max-typos',
    heldOut: true,
    forms: ['typos', 'lower case', 'no $ on the old value', 'aside'],
    question: "What's the most I can put on one gift card?",
    note: 'giftcards go up to $1000 now, we raised the limt from 500 last month',
    expected: update('giftcards'),
    states: [/\$1,?000\b/],
    notStates: [/\$500\b/],
    paraphrase: 'Is there a maximum value for a gift card?',
    leaks: [/limt/i, /last month/i],
  },
  {
    id: 'fresh-points-value-praise-then-fact',
    heldOut: true,
    forms: ['praise first', '"keep it"', 'lead-in', 'equals sign'],
    question: 'What are 100 Trail Rewards points worth?',
    note: 'Lovely tone, keep it. The value changed in September though: 100 points = $10 off.',
    expected: update('rewards'),
    states: [/\$10\b/],
    notStates: [/\$5\b/],
    paraphrase: 'How much discount do my reward points give me?',
    leaks: [/lovely tone/i, /keep it/i, /value changed/i],
  },
  // The used article holds the fact, the answer left it out: the answer is fixed, not the knowledge.
  {
    id: 'fresh-charged-on-ship-praise-then-missing',
    heldOut: true,
    forms: ['praise first', '"it misses"', 'the missing fact'],
    question: "I ordered yesterday but nothing has been taken from my card yet, is something wrong?",
    note: 'Friendly answer, but it misses the point: we only charge the card when the order ships.',
    expected: answer('payment'),
    states: [/(charg|bill)\w*[^.]*\b(ship|dispatch)|\b(ship|dispatch)\w*[^.]*\b(charg|bill)/i],
    paraphrase: "Why doesn't my bank show a payment for the order I placed this morning?",
    leaks: [/friendly answer/i, /misses the point/i],
  },
  {
    id: 'fresh-tennis-balls-answer-should-say',
    heldOut: true,
    forms: ['"the answer should say"', 'instruction, not a number'],
    question: 'My down jacket came out of the dryer flat and lumpy, what did I do wrong?',
    note: 'The answer should say to tumble dry it on low heat with two clean tennis balls to break up the clumps.',
    expected: answer('care'),
    states: [/tennis balls?/i],
    paraphrase: 'How do I get my puffer jacket fluffy again after washing it?',
  },
  // No article covers the subject: a new article.
  {
    id: 'fresh-boot-resoling-new',
    heldOut: true,
    forms: ['"yes we do now!"', 'a new fact no article covers', 'three facts'],
    question: 'Can you resole my hiking boots?',
    note: 'Yes we do now! Boots can be resoled at our Denver workshop for $60 a pair, it takes about 3 weeks. Customers can drop them off at any store.',
    expected: NEW,
    states: [/resol/i, /\$60/, /\b(3|three) weeks\b/i],
    paraphrase: 'The soles of my boots are worn through, do you repair them?',
    leaks: [/yes we do now/i],
  },
  {
    id: 'fresh-group-discount-typos-new',
    heldOut: true,
    forms: ['typos', 'lower case', 'a new fact no article covers', 'an email address'],
    question: 'I run a hiking club, do you give a discount if we all order together?',
    note: 'yes, clubs and schools get 10% off orders of 10 or more items, they shoud email teams@alderpine.example first',
    expected: NEW,
    states: [/10 ?%|10 percent/i, /teams@alderpine\.example/i],
    paraphrase: 'Is there a group discount for a school outdoor club?',
    leaks: [/shoud/i],
  },
];
