// The first-day set's Refine with AI cases (bench/first-day/run.ts): the help center of a small
// outdoor-gear shop ("Alder & Pine"), some of whose articles state facts that have since changed,
// and the notes a support lead writes under a bad answer, in the forms leads write them: "X, not
// Y", a lead-in before the fact, praise then the missing fact, "tell customers that ...", "the
// answer should say ...", terse notes, typos.
//
// Written before the set was run against any engine. `heldOut` cases were chosen up front, spread
// across the forms and the kinds of change: nobody tunes an engine on them.

export interface HelpArticle {
  key: string;
  title: string;
  body: string;
}

/**
 * The help center. Outdated on purpose (the truth is in the notes): the return window (14 days, now
 * 45), standard shipping (5 to 7 business days, now 3 to 5), the free-shipping threshold ($50, now
 * $75), the warranty (1 year, now 2), gift-card validity (2 years, now no expiry), Sunday opening
 * hours (11 am to 5 pm, now 10 am to 6 pm), the price-match window (14 days, now 30) and reward
 * points (1 per dollar, now 2).
 */
export const ARTICLES: HelpArticle[] = [
  {
    key: 'returns',
    title: 'Returns and refunds',
    body:
      'You can return unused items within 14 days of delivery for a full refund. Items must be unworn and in their original packaging with all tags attached. ' +
      'To start a return, go to Orders in your account, choose the item and print the return label. Pack the item securely and drop it off at any UPS location. ' +
      'Refunds go back to your original payment method within 5 business days after we receive the return. Items marked Final sale cannot be returned or exchanged.',
  },
  {
    key: 'shipping',
    title: 'Shipping times and costs',
    body:
      'Standard shipping takes 5 to 7 business days within the contiguous United States. Express shipping takes 2 business days and costs $15. ' +
      'Standard shipping is free on orders over $50; below that it costs $6.95. Orders placed before 1 pm Eastern time ship the same business day. ' +
      'We ship to all 50 states and to Canada. You get a tracking link by email as soon as your order ships.',
  },
  {
    key: 'warranty',
    title: 'Warranty',
    body:
      'All Alder & Pine gear comes with a 1-year warranty against defects in materials and workmanship. The warranty does not cover normal wear and tear, accidents, or damage from improper use or care. ' +
      'To make a claim, email warranty@alderpine.example with your order number and photos of the defect. Approved claims are repaired or replaced free of charge, usually within 10 business days.',
  },
  {
    key: 'sizing',
    title: 'Finding your size',
    body:
      'Our hiking boots run half a size small, so we recommend ordering half a size up. Jackets and fleeces are true to size; if you are between sizes and want to layer underneath, take the larger size. ' +
      'The size guide on every product page lists chest, waist and foot measurements in inches and centimetres.',
  },
  {
    key: 'exchanges',
    title: 'Exchanging an item',
    body:
      'You can exchange unused items for a different size or colour within 30 days of delivery. Exchanges are free: we send you a prepaid label and ship the new item as soon as the original is scanned by the carrier. ' +
      'Start an exchange from Orders in your account and choose Exchange instead of Return. If the new size is out of stock, we refund the item instead.',
  },
  {
    key: 'giftcards',
    title: 'Gift cards',
    body:
      'Alder & Pine gift cards are available in amounts from $25 to $500, as an e-gift card by email or as a plastic card by post. Gift cards are valid for 2 years from the date of purchase. ' +
      'They can be used online and in all our stores, and several gift cards can be combined on one order. Check your balance at alderpine.example/giftcard. Gift cards cannot be exchanged for cash.',
  },
  {
    key: 'stores',
    title: 'Our stores and opening hours',
    body:
      'We have stores in Denver, Boulder and Salt Lake City. All stores are open Monday to Saturday from 10 am to 7 pm, and on Sunday from 11 am to 5 pm. ' +
      'Online orders can be picked up in any store free of charge: choose Store pickup at checkout and wait for the email saying your order is ready. Store staff can also help you with returns and exchanges of online orders.',
  },
  {
    key: 'pricematch',
    title: 'Price match promise',
    body:
      'If you find an identical item cheaper at another US retailer within 14 days of your purchase, we refund the difference. The item must be the same model, size and colour and in stock at the other retailer. ' +
      'We do not match prices from marketplaces such as Amazon or eBay, clearance sales, or member-only prices. To ask for a price match, contact us with a link to the offer and your order number.',
  },
  {
    key: 'care',
    title: 'Washing and drying your down jacket',
    body:
      'Wash your down jacket in a front-loading machine on a gentle cycle at 30 °C with a down-specific detergent. Close all zips and empty the pockets first. Do not use fabric softener, as it makes the down clump. ' +
      'Tumble dry on low heat with two clean tennis balls to break up the clumps; drying takes 2 to 3 hours. Make sure the jacket is completely dry before you store it.',
  },
  {
    key: 'payment',
    title: 'Payment methods',
    body:
      'We accept Visa, Mastercard, American Express, Discover, PayPal and Apple Pay. With Klarna you can pay in 4 interest-free instalments on orders over $50. ' +
      'We do not accept cheques or cash on delivery. Your card is charged when your order ships, not when you place it.',
  },
  {
    key: 'rewards',
    title: 'Trail Rewards',
    body:
      'Trail Rewards is our free loyalty program. Members earn 1 point per dollar spent online and in stores. Every 100 points are worth $5 off your next order. ' +
      'Points expire after 12 months without a purchase. Sign up in your account under Trail Rewards.',
  },
];

/** The change a lead expects from the note. */
export type ExpectedChange =
  /** The article holding the wrong fact (or covering the subject of the missing one) is corrected: a draft of that article. */
  | { kind: 'article_update'; article: string }
  /** The used article already holds the fact: the answer is fixed (a prompt change), not the knowledge. */
  | { kind: 'answer_or_prompt'; article: string }
  /** No article covers the subject: a new article, written as help-center text. */
  | { kind: 'new_article' };

export interface RefineCase {
  id: string;
  /** Never used to tune an engine; reported apart. */
  heldOut: boolean;
  /** The forms of the note, for the listing. */
  forms: string[];
  /** The customer's question the agent answered badly. */
  question: string;
  /** The lead's note, as typed. */
  note: string;
  expected: ExpectedChange;
  /** The replayed answer (and the answer to the paraphrase after publishing) says all of these; a proposed article body too. */
  states: RegExp[];
  /** ... and none of these (the old fact). */
  notStates?: RegExp[];
  /** The same question in other words, asked after the fix is published: the fix holds for it. */
  paraphrase: string;
  /** The note's own words that must not reach customer-facing text, beyond the markers every case checks. */
  leaks?: RegExp[];
}

const update = (article: string): ExpectedChange => ({ kind: 'article_update', article });
const answer = (article: string): ExpectedChange => ({ kind: 'answer_or_prompt', article });
const NEW: ExpectedChange = { kind: 'new_article' };

const TWO_YEARS = /\b(2|two)[- ]years?\b|\b(2|two) yrs\b/i;
const ONE_YEAR = /\b(1|one)[- ]year\b/i;

export const REFINE_CASES: RefineCase[] = [
  // The article states an old fact: it is corrected.
  {
    id: 'return-window-x-not-y',
    heldOut: false,
    forms: ['lead-in "this is wrong"', 'X, not Y'],
    question: 'How long do I have to return something?',
    note: 'This is wrong: customers can return an item within 45 days of delivery, not 14 days',
    expected: update('returns'),
    states: [/45 days/i],
    notStates: [/14 days/i],
    paraphrase: "What's your return window?",
    leaks: [/not 14 days/i],
  },
  {
    id: 'shipping-time-terse',
    heldOut: false,
    forms: ['terse', 'dash'],
    question: 'How long does standard shipping take?',
    note: 'wrong - 3 to 5 days',
    expected: update('shipping'),
    states: [/\b3 ?(to|-|–) ?5 (business )?days\b/i],
    notStates: [/\b5 ?(to|-|–) ?7\b/i],
    paraphrase: 'If I pick standard delivery, when will my order arrive?',
  },
  {
    id: 'warranty-lead-in',
    heldOut: true,
    forms: ['lead-in', 'no old value named'],
    question: 'How long is the warranty on your jackets?',
    note: 'Heads up, we changed this in March: all our gear now comes with a 2-year warranty.',
    expected: update('warranty'),
    states: [TWO_YEARS],
    notStates: [ONE_YEAR],
    paraphrase: 'If my tent breaks after 18 months, is it still covered by the warranty?',
    leaks: [/changed this in march/i],
  },
  {
    id: 'gift-cards-no-expiry-typos',
    heldOut: false,
    forms: ['typos', 'lower case', 'no number for the new fact'],
    question: 'Do gift cards expire?',
    note: 'gift cards dont expire anymore, the 2 year limit was dropped in januray',
    expected: update('giftcards'),
    states: [/never expire|do(es)? not expire|don'?t expire|no expir|without (an )?expir/i],
    notStates: [/valid for 2 years|2 years from/i],
    paraphrase: 'Is there a time limit on using a gift card?',
    leaks: [/januray|dropped in/i],
  },
  {
    id: 'price-match-x-not-y-lower',
    heldOut: false,
    forms: ['lower case', 'X, not Y', 'no lead-in'],
    question: 'Can you price match if I find it cheaper after buying?',
    note: 'we price match within 30 days of purchase, not 14',
    expected: update('pricematch'),
    states: [/30 days/i],
    notStates: [/14 days/i],
    paraphrase: 'I bought boots last week and now they are cheaper at another shop, can you match that?',
    leaks: [/not 14\b/i],
  },
  {
    id: 'sunday-hours-answer-should-say',
    heldOut: true,
    forms: ['"the answer should say"'],
    question: 'Are your stores open on Sunday?',
    note: 'The answer should say stores are open 10 am to 6 pm on Sundays.',
    expected: update('stores'),
    states: [/10 ?am to 6 ?pm/i],
    notStates: [/11 ?am to 5 ?pm/i],
    paraphrase: 'what time does the Boulder store open on sundays',
  },
  {
    id: 'reward-points-praise-then-fact',
    heldOut: false,
    forms: ['praise first', 'lead-in', 'aside'],
    question: 'How many points do I earn per dollar?',
    note: 'Nice and short, but the number is outdated: members earn 2 points per dollar since the relaunch.',
    expected: update('rewards'),
    states: [/\b(2|two) points per dollar/i],
    notStates: [/\b(1|one) point per dollar/i],
    paraphrase: 'How fast do I collect Trail Rewards points when I shop?',
    leaks: [/nice and short/i, /number is outdated/i],
  },
  {
    id: 'free-shipping-tell-customers',
    heldOut: true,
    forms: ['"tell customers that"', 'X, no longer Y'],
    question: 'Is shipping free?',
    note: "Tell customers that standard shipping is free on orders over $75, it's no longer $50.",
    expected: update('shipping'),
    states: [/\$75/],
    notStates: [/\$50\b/],
    paraphrase: 'How much do I need to spend to get free delivery?',
    leaks: [/no longer \$50/i],
  },
  {
    id: 'return-window-terse-held',
    heldOut: true,
    forms: ['terse', 'lower case', 'X not Y without comma'],
    question: 'can i still return boots i got 30 days ago',
    note: '45 days not 14',
    expected: update('returns'),
    states: [/45 days/i],
    notStates: [/14 days/i],
    paraphrase: 'Is a return still possible five weeks after delivery?',
    leaks: [/not 14\b/i],
  },
  {
    id: 'warranty-typos-abbrev',
    heldOut: true,
    forms: ['typos', 'abbreviation', 'X not Y'],
    question: 'What does your warranty cover?',
    note: 'warrenty is 2 yrs now not 1',
    expected: update('warranty'),
    states: [TWO_YEARS],
    notStates: [ONE_YEAR],
    paraphrase: 'How long are your products guaranteed against defects?',
    leaks: [/\byrs\b/i, /warrenty/i, /not 1\b/i],
  },
  // A fact the covering article lacks: that article gets it.
  {
    id: 'new-store-added-fact',
    heldOut: false,
    forms: ['plain statement', 'aside'],
    question: 'Do you have a store in Fort Collins?',
    note: 'We opened a store in Fort Collins in May, at 210 Linden Street.',
    expected: update('stores'),
    states: [/Fort Collins/i, /210 Linden/i],
    paraphrase: 'Where is your Fort Collins shop?',
  },
  {
    id: 'return-label-also-tell-customers',
    heldOut: false,
    forms: ['"also tell customers that"'],
    question: 'How do I return my jacket?',
    note: 'Also tell customers that the return label is free',
    expected: update('returns'),
    states: [/label[^.]*\bfree\b|\bfree\b[^.]*label/i],
    paraphrase: 'Do I have to pay for the return shipping label?',
  },
  {
    id: 'ship-to-uk-added-fact',
    heldOut: false,
    forms: ['lower case', 'two facts', 'aside'],
    question: 'Do you ship to the UK?',
    note: 'we ship to the UK too since last year, it takes 7 to 10 business days',
    expected: update('shipping'),
    states: [/\bUK\b|United Kingdom/i, /7 to 10 business days/i],
    paraphrase: 'Can you deliver to the United Kingdom?',
  },
  {
    id: 'dogs-in-store-added-fact',
    heldOut: false,
    forms: ['plain statement'],
    question: 'Can I bring my dog to the store?',
    note: 'Dogs on a leash are welcome in all our stores.',
    expected: update('stores'),
    states: [/dogs?/i, /leash/i],
    paraphrase: 'Are pets allowed in your shops?',
  },
  // The used article holds the fact, the answer left it out: the answer is fixed, not the knowledge.
  {
    id: 'final-sale-praise-then-missing',
    heldOut: false,
    forms: ['praise first', '"it should also say"'],
    question: 'How do I start a return?',
    note: "Good answer, but it should also say that sale items marked Final sale can't be returned.",
    expected: answer('returns'),
    states: [/final sale/i],
    paraphrase: "What's the process to send something back?",
  },
  {
    id: 'fabric-softener-answer-should',
    heldOut: false,
    forms: ['"the answer should also say"', 'lower case'],
    question: 'How do I wash my down jacket?',
    note: 'the answer should also say not to use fabric softener',
    expected: answer('care'),
    states: [/fabric softener/i],
    paraphrase: 'Can I put my puffer jacket in the washing machine?',
  },
  {
    id: 'drying-time-tell-customers',
    heldOut: true,
    forms: ['"tell customers"', 'aside'],
    question: 'How do I dry my down jacket?',
    note: 'Tell customers drying takes 2 to 3 hours, they always ask',
    expected: answer('care'),
    states: [/2 to 3 hours/i],
    paraphrase: 'how long does a down jacket need in the dryer',
    leaks: [/they always ask/i],
  },
  {
    id: 'klarna-correct-but',
    heldOut: false,
    forms: ['praise first', '"it should mention"'],
    question: 'Which payment methods do you accept?',
    note: 'correct, but it should mention Klarna lets you pay in 4 interest-free instalments',
    expected: answer('payment'),
    states: [/Klarna/i, /interest-free/i],
    paraphrase: 'What ways can I pay for my order?',
  },
  {
    id: 'exchanges-free-pls',
    heldOut: false,
    forms: ['pls', 'lower case', 'terse'],
    question: 'How do I exchange boots for a bigger size?',
    note: 'pls add that exchanges are free',
    expected: answer('exchanges'),
    states: [/\bfree\b/i],
    paraphrase: 'Can I swap my boots for a different size?',
  },
  {
    id: 'half-size-should-mention',
    heldOut: true,
    forms: ['"should mention"', 'two clauses'],
    question: 'What size hiking boots should I order?',
    note: 'should mention they run half a size small so order half a size up',
    expected: answer('sizing'),
    states: [/half a size/i],
    paraphrase: 'Do the hiking boots run small or big?',
  },
  {
    id: 'points-expiry-fine-but',
    heldOut: false,
    forms: ['praise first', '"say that"'],
    question: 'How do Trail Rewards points work?',
    note: 'Fine, but say that points expire after 12 months without a purchase.',
    expected: answer('rewards'),
    states: [/12 months/i],
    paraphrase: 'Do my reward points ever run out?',
  },
  {
    id: 'warranty-photos-answer-should',
    heldOut: false,
    forms: ['"answer should say"', 'lower case'],
    question: 'How do I make a warranty claim?',
    note: 'answer should say to include photos of the defect',
    expected: answer('warranty'),
    states: [/photos?/i],
    paraphrase: 'The zip on my jacket broke, how do I claim the warranty?',
  },
  {
    id: 'gift-card-balance-also-mention',
    heldOut: true,
    forms: ['"also mention"', 'a link'],
    question: 'Where can I use my gift card?',
    note: 'Also mention they can check the balance at alderpine.example/giftcard',
    expected: answer('giftcards'),
    states: [/alderpine\.example\/giftcard/i],
    paraphrase: 'Can I spend a gift card online?',
  },
  {
    id: 'cutoff-typos',
    heldOut: false,
    forms: ['typos', 'terse', 'lower case'],
    question: 'When will my order ship?',
    note: 'shuold say orders before 1pm eastern ship same day',
    expected: answer('shipping'),
    states: [/\b1 ?pm\b/i],
    paraphrase: 'If I order this morning, will it go out today?',
    leaks: [/shuold/i],
  },
  {
    id: 'marketplaces-needs-to-say',
    heldOut: true,
    forms: ['"it needs to say"'],
    question: 'How does price matching work?',
    note: "It needs to say we don't match marketplaces like Amazon or eBay.",
    expected: answer('pricematch'),
    states: [/Amazon|eBay/i],
    paraphrase: 'Will you match a lower price I found online?',
  },
  // No article covers the subject: a new article.
  {
    id: 'student-discount-new',
    heldOut: false,
    forms: ['"yes we do!"', 'plain facts'],
    question: 'Do you have a student discount?',
    note: 'Yes we do! Students get 15% off with a valid student ID through UNiDAYS.',
    expected: NEW,
    states: [/15 ?%|15 percent/i, /UNiDAYS/i],
    paraphrase: 'Is there a discount for college students?',
  },
  {
    id: 'tent-repair-tell-customers-new',
    heldOut: false,
    forms: ['"tell customers"', 'lower case', 'three facts'],
    question: 'Can you repair my tent?',
    note: 'tell customers we repair tents at our Denver store, repairs usually take 2 weeks and start at $25',
    expected: NEW,
    states: [/repair/i, /\b(2|two) weeks\b/i, /\$25/],
    paraphrase: 'My tent pole snapped, do you fix tents?',
  },
  {
    id: 'rentals-new',
    heldOut: true,
    forms: ['plain facts', 'two sentences'],
    question: 'Do you rent camping gear?',
    note: 'We rent tents, sleeping bags and stoves at the Boulder store. Book at least 3 days ahead.',
    expected: NEW,
    states: [/\brent/i, /Boulder/i, /3 days/i],
    paraphrase: 'Can I hire a tent for a weekend?',
  },
  {
    id: 'military-discount-answer-should-say-new',
    heldOut: false,
    forms: ['"the answer should say"', 'lower case'],
    question: 'Do you offer a military discount?',
    note: 'the answer should say active military and veterans get 10% off in store with ID',
    expected: NEW,
    states: [/10 ?%|10 percent/i, /veteran/i],
    paraphrase: 'Is there a veterans discount?',
  },
  {
    id: 'trade-in-lower-case-new',
    heldOut: true,
    forms: ['lower case', 'colon', 'no punctuation at the end'],
    question: 'What can I do with my old jacket?',
    note: 'we have a trade in program: bring used gear to any store and get a $10 voucher per item',
    expected: NEW,
    states: [/trade[- ]?in/i, /\$10/],
    paraphrase: 'Do you take back worn-out gear?',
  },
  {
    id: 'gift-wrap-typos-new',
    heldOut: false,
    forms: ['typos', 'lower case'],
    question: 'Can you gift wrap my order?',
    note: 'we do gift wraping for $5, customers can choose it at checkout',
    expected: NEW,
    states: [/\$5\b/, /checkout/i],
    paraphrase: 'Is gift wrap available?',
    leaks: [/wraping/i],
  },
  {
    id: 'welcome-discount-this-is-wrong-new',
    heldOut: false,
    forms: ['lead-in "this is wrong"', 'plain fact'],
    question: 'Do you have a discount code for my first order?',
    note: 'This is wrong, we do have one: newsletter subscribers get 10% off their first order.',
    expected: NEW,
    states: [/newsletter/i, /10 ?%|10 percent/i],
    paraphrase: 'Is there a welcome discount for new customers?',
    leaks: [/we do have one/i],
  },
  {
    id: 'phone-support-agent-should-know-new',
    heldOut: true,
    forms: ['plain facts', 'complaint about the agent'],
    question: "What's your customer service phone number?",
    note: "It's 1-800-555-0142, open 8 am to 8 pm Mountain time on weekdays. The agent should know that.",
    expected: NEW,
    states: [/1-800-555-0142/, /8 ?am to 8 ?pm/i],
    paraphrase: 'Can I call you?',
    leaks: [/should know that/i],
  },
  {
    id: 'spare-poles-new',
    heldOut: false,
    forms: ['"yes,"', 'plain facts'],
    question: 'Do you sell replacement tent poles?',
    note: 'Yes, replacement pole sections are $12 each, order them by phone or in store',
    expected: NEW,
    states: [/\$12/, /pole/i],
    paraphrase: 'Where can I buy a spare pole for my tent?',
  },
];
