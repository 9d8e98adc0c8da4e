// The first-day set's rule cases (bench/first-day/run.ts): instructions as a support lead of a
// small outdoor-gear shop ("Alder & Pine") types them into "create a rule", each with the
// conversations the lead would try in the rule's test panel and what they expect to see.
//
// Written before the set was run against any engine, from the forms leads use (commas or none,
// if / when / unless / otherwise / else, numbered or bulleted steps, "escalate / hand over /
// transfer", several values, and / or, numbers and dates in the customer's words, tags) and not
// from what an engine understands. `heldOut` cases were chosen up front, spread across the forms:
// nobody tunes an engine on them.

/** What the customer says: fixed text, or text built from today's date (dates in the customer's words). */
export type Said = string | ((today: Date) => string);

/** A value the flow should have stored once the customer said it (any collected field may hold it). */
export type Expected =
  /** A number: `48213`, `"48213"`, `"order 48213"` and `"$149.99"` read as their number; a sentence with other numbers does not. */
  | { number: number; tolerance?: number }
  /** A count of days in the past: that number (within the tolerance, default 1), or that date. */
  | { daysAgo: number; tolerance?: number }
  /** A count of days ahead: that number, or that date. */
  | { daysAhead: number; tolerance?: number }
  | { yes: boolean }
  /** Text: equal, ignoring case and surrounding spaces, or the stored text contains it. */
  | { text: string };

/** One path through the rule: what the customer answers and what the lead expects to happen. */
export interface Branch {
  label: string;
  /** The first message, when this path starts differently from the case's opener. */
  opener?: string;
  /** What the customer answers to each question (keys of the case's `asks`); every ask of the case is answered. */
  answers: Record<string, Said>;
  /** What the flow must have stored by the end (keys of `asks`): the customer's value, read out of their words. */
  values?: Record<string, Expected>;
  /** The lead's expectation: a hand-over, or a reply saying all of these. */
  outcome: { handover: true } | { says: RegExp[] };
  /** Tags (of the workspace's Topic group) the flow applies on this path; any other tag of the case is wrong here. */
  tags?: string[];
  /** Harmful if any reply on this path says it (what the instruction reserved for another path, a promise). */
  never?: RegExp[];
  /** The words of the instruction this path rests on (a warning naming them makes a miss "not understood"). */
  fragment: string;
}

export interface RuleCase {
  id: string;
  /** Never used to tune an engine; reported apart. */
  heldOut: boolean;
  /** The forms of the instruction, for the listing. */
  forms: string[];
  instruction: string;
  /** The draft's name summarises the rule: it matches this (and is short). */
  name: RegExp;
  /** The customer's first message: the rule fires on it. */
  opener: string;
  /** The questions the lead expects the flow to ask, by key: a question matching the pattern gets that answer. */
  asks: Record<string, RegExp>;
  branches: Branch[];
  /** A knowledge question the rule is not for, sharing one common word with the instruction: the rule must not fire. */
  unrelated: string;
}

/** The Topic group's tags the workspace has (the instructions name them). */
export const TAGS = ['Damaged', 'Wholesale', 'Warranty', 'Exchange', 'Urgent', 'Missing parcel', 'Safety', 'Loyalty', 'Complaint', 'Cancellation', 'Refund', 'Gift wrap', 'Rental'];

// Dates as customers write them, relative to the day the set runs.
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const shift = (today: Date, days: number) => new Date(today.getTime() + days * 86_400_000);
/** "3 March 2026" */
export const longDate = (d: Date) => `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
/** "March 3rd" (no year, as people write a recent date) */
export const shortDate = (d: Date) => {
  const n = d.getUTCDate();
  const suffix = n % 10 === 1 && n !== 11 ? 'st' : n % 10 === 2 && n !== 12 ? 'nd' : n % 10 === 3 && n !== 13 ? 'rd' : 'th';
  return `${MONTHS[d.getUTCMonth()]} ${n}${suffix}`;
};
const ago = (days: number, text: (date: string) => string, format = longDate): Said => (today) => text(format(shift(today, -days)));
const ahead = (days: number, text: (date: string) => string, format = longDate): Said => (today) => text(format(shift(today, days)));

// Questions, as a flow may word them.
const ORDER = /order (number|no\b|nr|#|id)|order ?#|number of (your|the) order|which order/i;
const WHEN = /when|what date|which date|how (long|many days|many weeks) ago|how old|days ago|purchase date|date of/i;
const AMOUNT = /how much|amount|total|cost|price|value|spend|spent/i;
const EMAIL = /e-?mail/i;
const SHIPPED = /shipped|dispatched|sent out|on its way|left (the|our)|been sent/i;

export const RULE_CASES: RuleCase[] = [
  {
    id: 'refund-older-than-30-days',
    heldOut: false,
    forms: ['one sentence', 'commas', 'then', 'if / otherwise', 'escalate', 'days from words', 'quoted reply'],
    instruction: "Ask for the order number, then if the order is older than 30 days escalate to a human, otherwise say 'We will refund you'",
    name: /refund/i,
    opener: "Hi, I'd like a refund for the tent I bought",
    asks: { order: ORDER, age: WHEN },
    branches: [
      {
        label: 'order 48213, 45 days old: hands over',
        answers: { order: 'It is order 48213, I bought it 45 days ago', age: '45 days ago' },
        values: { order: { number: 48213 }, age: { daysAgo: 45 } },
        outcome: { handover: true },
        never: [/refund you/i],
        fragment: 'if the order is older than 30 days escalate to a human',
      },
      {
        label: 'order 1234, 10 days old: promises the refund',
        answers: { order: 'order 1234, I got it 10 days ago', age: '10 days ago' },
        values: { order: { number: 1234 }, age: { daysAgo: 10 } },
        outcome: { says: [/we will refund you/i] },
        fragment: "otherwise say 'We will refund you'",
      },
    ],
    unrelated: 'How many days does delivery to Canada take?',
  },
  {
    id: 'return-boots-no-commas',
    heldOut: true,
    forms: ['no commas', 'when', 'if / otherwise', 'hand over', 'date in words', 'several values'],
    instruction:
      'when someone wants to return boots ask for the order number and when they bought them if it was more than 60 days ago hand over to an agent otherwise tell them to print the return label from their account',
    name: /return/i,
    opener: "I'd like to return my hiking boots, they hurt my feet",
    asks: { order: ORDER, age: WHEN },
    branches: [
      {
        label: 'bought 75 days ago (a date): hands over',
        answers: { order: '55102', age: ago(75, (d) => `I bought them on ${d}`) },
        values: { order: { number: 55102 }, age: { daysAgo: 75 } },
        outcome: { handover: true },
        never: [/print the return label|return label from/i],
        fragment: 'if it was more than 60 days ago hand over to an agent',
      },
      {
        label: 'bought 3 weeks ago: print the label',
        answers: { order: 'order 55230', age: 'about 3 weeks ago' },
        values: { order: { number: 55230 }, age: { daysAgo: 21, tolerance: 2 } },
        outcome: { says: [/return label/i] },
        fragment: 'otherwise tell them to print the return label from their account',
      },
    ],
    unrelated: 'How do I waterproof my leather boots?',
  },
  {
    id: 'damaged-item-numbered',
    heldOut: false,
    forms: ['trigger line', 'numbered steps', 'several values', 'over $', 'hand over', 'otherwise step', 'tag after the branches'],
    instruction:
      'When a customer says an item arrived damaged:\n1. Ask for the order number\n2. Ask them to describe the damage\n3. Ask how much the item cost\n4. If it cost over $100, hand over to a human\n5. Otherwise say "Sorry about that! We\'ll send a replacement right away."\n6. Tag the conversation as Damaged',
    name: /damage/i,
    opener: 'My order arrived damaged, the stove lid is all bent',
    asks: { order: ORDER, damage: /describe|damage|what happened|what('s| is) wrong/i, amount: AMOUNT },
    branches: [
      {
        label: '$149.99 item: hands over, tagged',
        answers: { order: '#77120', damage: "the lid of the stove is bent and it won't close", amount: 'It was $149.99' },
        values: { order: { number: 77120 }, amount: { number: 149.99 } },
        outcome: { handover: true },
        tags: ['Damaged'],
        never: [/replacement/i],
        fragment: 'If it cost over $100, hand over to a human',
      },
      {
        label: '$35 item: replacement, tagged',
        answers: { order: '77121', damage: 'one of the enamel mugs is cracked', amount: '$35' },
        values: { order: { number: 77121 }, amount: { number: 35 } },
        outcome: { says: [/replacement/i] },
        tags: ['Damaged'],
        fragment: 'Otherwise say "Sorry about that! We\'ll send a replacement right away."',
      },
    ],
    unrelated: 'Which items are on sale this week?',
  },
  {
    id: 'refund-amount-and-gift-card',
    heldOut: false,
    forms: ['title line', 'bulleted -', 'three values in one step', 'and', 'over $', 'transfer to an agent', 'otherwise reply'],
    instruction:
      'Refunds:\n- ask for the order number, the refund amount and how they paid\n- if the amount is over $200 and they paid with a gift card, transfer to an agent\n- otherwise reply "Your refund has been approved and will reach you within 5 business days."',
    name: /refund/i,
    opener: 'I returned my jacket last week, when do I get my refund?',
    asks: { order: ORDER, amount: AMOUNT, payment: /how (did )?you pa(id|y)|payment|pa(id|y|ying) (with|by)|method/i },
    branches: [
      {
        label: '$320 by gift card: transfers',
        answers: { order: '60311', amount: '$320', payment: 'with a gift card' },
        values: { order: { number: 60311 }, amount: { number: 320 } },
        outcome: { handover: true },
        never: [/approved/i],
        fragment: 'if the amount is over $200 and they paid with a gift card, transfer to an agent',
      },
      {
        label: '$320 by credit card: approved',
        answers: { order: '60312', amount: '$320', payment: 'my Visa credit card' },
        values: { order: { number: 60312 }, amount: { number: 320 } },
        outcome: { says: [/approved/i, /5 business days/i] },
        fragment: 'otherwise reply "Your refund has been approved and will reach you within 5 business days."',
      },
      {
        label: '$45 by gift card: approved',
        answers: { order: '60313', amount: '45 dollars', payment: 'gift card' },
        values: { order: { number: 60313 }, amount: { number: 45 } },
        outcome: { says: [/approved/i] },
        fragment: 'otherwise reply "Your refund has been approved and will reach you within 5 business days."',
      },
    ],
    unrelated: 'Do you give a discount if I pay by bank transfer?',
  },
  {
    id: 'late-delivery-unless',
    heldOut: false,
    forms: ['one sentence', 'unless', 'value implied, not asked for', 'hand it over'],
    instruction: 'Offer the customer a 15% discount code SORRY15 for the late delivery unless the order is more than 14 days late, in that case hand it over to the team.',
    name: /late|delay/i,
    opener: 'My order is late, it was supposed to be here last week',
    asks: { late: /how (many days|late|long)|days late|late is|expected|delay/i, order: ORDER },
    branches: [
      {
        label: '20 days late: hands over',
        answers: { late: "It's about 20 days late now", order: "It's order 81190" },
        values: { late: { number: 20 } },
        outcome: { handover: true },
        never: [/SORRY15/i],
        fragment: 'unless the order is more than 14 days late, in that case hand it over to the team',
      },
      {
        label: '5 days late: the code',
        answers: { late: '5 days late', order: "It's order 81191" },
        values: { late: { number: 5 } },
        outcome: { says: [/SORRY15/] },
        fragment: 'Offer the customer a 15% discount code SORRY15 for the late delivery',
      },
    ],
    unrelated: 'Do you deliver on Saturdays?',
  },
  {
    id: 'cancel-shipped-or-custom',
    heldOut: true,
    forms: ['trigger line', 'yes/no values', 'or', 'hand over', 'otherwise say'],
    instruction:
      'When a customer wants to cancel an order: ask for the order number and whether it has shipped. If it has shipped or it is a custom order, hand over to a human. Otherwise say "Your order has been cancelled and you\'ll get a confirmation email."',
    name: /cancel/i,
    opener: 'I need to cancel my order please',
    asks: { order: ORDER, shipped: SHIPPED, custom: /custom|personali[sz]ed|engrav|made to order/i },
    branches: [
      {
        label: 'shipped: hands over',
        answers: { order: '48811', shipped: 'yes, it shipped yesterday', custom: 'no' },
        values: { order: { number: 48811 }, shipped: { yes: true } },
        outcome: { handover: true },
        never: [/has been cancelled/i],
        fragment: 'If it has shipped or it is a custom order, hand over to a human',
      },
      {
        label: 'not shipped, not custom: cancelled',
        answers: { order: '48812', shipped: "no, not yet", custom: "no, it's a normal jacket" },
        values: { order: { number: 48812 }, shipped: { yes: false } },
        outcome: { says: [/has been cancelled/i] },
        fragment: 'Otherwise say "Your order has been cancelled and you\'ll get a confirmation email."',
      },
      {
        label: 'not shipped but custom: hands over',
        answers: { order: '48813', shipped: "no it hasn't shipped", custom: "yes, it's an engraved knife" },
        values: { order: { number: 48813 }, shipped: { yes: false } },
        outcome: { handover: true },
        never: [/has been cancelled/i],
        fragment: 'or it is a custom order, hand over to a human',
      },
    ],
    unrelated: 'Can I get my name embroidered on a custom backpack?',
  },
  {
    id: 'wholesale-three-values',
    heldOut: false,
    forms: ['one sentence', 'three values', 'tag', 'tell them'],
    instruction:
      'For wholesale enquiries ask for the company name, the number of units and an email address, then tag it Wholesale and tell them our B2B team will reply within 2 business days.',
    name: /wholesale|b2b|bulk/i,
    opener: 'Hi, we run an outdoor shop and want to buy your tents wholesale',
    asks: { company: /company|business|shop('s)? name|organi[sz]ation/i, units: /how many|units|quantity|number of/i, email: EMAIL },
    branches: [
      {
        label: 'all three given: the B2B reply, tagged',
        answers: { company: 'Trail Supply Ltd', units: 'about 200 units', email: 'buyer@trailsupply.example' },
        values: { company: { text: 'Trail Supply Ltd' }, units: { number: 200 }, email: { text: 'buyer@trailsupply.example' } },
        outcome: { says: [/2 business days/i] },
        tags: ['Wholesale'],
        fragment: 'tell them our B2B team will reply within 2 business days',
      },
    ],
    unrelated: 'How do I unsubscribe from your emails?',
  },
  {
    id: 'warranty-purchase-date',
    heldOut: false,
    forms: ['title line', 'date in words', 'more than 2 years', 'if / else', 'transfer', 'tag on one branch'],
    instruction:
      "Warranty claims: ask for the order number and the purchase date. If the purchase is more than 2 years old say 'Sorry, your item is no longer under warranty.' else transfer to a warranty agent and tag as Warranty.",
    name: /warrant/i,
    opener: 'The zip on my jacket broke, is it still under warranty?',
    asks: { order: ORDER, bought: WHEN },
    branches: [
      {
        label: 'bought over 3 years ago: no longer covered',
        answers: { order: '30155', bought: ago(3 * 365 + 20, (d) => `I bought it on ${d}`) },
        values: { order: { number: 30155 }, bought: { daysAgo: 3 * 365 + 20, tolerance: 2 } },
        outcome: { says: [/no longer under warranty/i] },
        fragment: "If the purchase is more than 2 years old say 'Sorry, your item is no longer under warranty.'",
      },
      {
        label: 'bought 6 months ago: transfers, tagged',
        answers: { order: '30156', bought: ago(180, (d) => d) },
        values: { order: { number: 30156 }, bought: { daysAgo: 180, tolerance: 2 } },
        outcome: { handover: true },
        tags: ['Warranty'],
        never: [/no longer under warranty/i],
        fragment: 'else transfer to a warranty agent and tag as Warranty',
      },
    ],
    unrelated: 'How do I claim my free gift?',
  },
  {
    id: 'price-match-difference',
    heldOut: true,
    forms: ['when ... when', 'difference of two values', 'more than $', 'hand over'],
    instruction:
      "When someone asks us to price match, ask for the competitor's price and our price. When the difference is more than $50, hand over to a human; when it's less, say 'We'll match that price, please send us a link to the offer.'",
    name: /price/i,
    opener: 'Can you price match? I found the Summit 2 tent cheaper somewhere else',
    asks: {
      theirs: /competitor|other (store|shop|retailer|site)|elsewhere|their price|where you found|found it/i,
      ours: /our price|our (store|site|website|shop)|on our|with us|you (see|saw)|alder/i,
    },
    branches: [
      {
        label: '$120 against $199: hands over',
        answers: { theirs: '$120 at Trailhouse', ours: '$199' },
        values: { theirs: { number: 120 }, ours: { number: 199 } },
        outcome: { handover: true },
        never: [/match that price/i],
        fragment: 'When the difference is more than $50, hand over to a human',
      },
      {
        label: '$180 against $199: matches',
        answers: { theirs: 'I saw it for $180', ours: "it's $199 on your site" },
        values: { theirs: { number: 180 }, ours: { number: 199 } },
        outcome: { says: [/match that price/i] },
        fragment: "when it's less, say 'We'll match that price, please send us a link to the offer.'",
      },
    ],
    unrelated: "What's the price of the Summit 2 tent?",
  },
  {
    id: 'size-exchange-bullets',
    heldOut: false,
    forms: ['title line', 'bulleted •', 'tag', 'quoted reply', 'no condition'],
    instruction:
      'Size exchanges\n• ask for the order number\n• ask what size they need instead\n• tag as Exchange\n• say "Thanks! We\'ll email you a free exchange label today."',
    name: /exchange|size/i,
    opener: 'Can I exchange my boots for a bigger size?',
    asks: { order: ORDER, size: /size/i },
    branches: [
      {
        label: 'order 72001, size 10: the label, tagged',
        answers: { order: 'order 72001', size: 'a 10 please' },
        values: { order: { number: 72001 }, size: { number: 10 } },
        outcome: { says: [/exchange label/i] },
        tags: ['Exchange'],
        fragment: 'say "Thanks! We\'ll email you a free exchange label today."',
      },
    ],
    unrelated: 'What size tent do I need for four people?',
  },
  {
    id: 'chargeback-straight-to-human',
    heldOut: false,
    forms: ['if', 'or', 'tag', 'escalate', 'no values', "don't promise"],
    instruction:
      "If a customer mentions a chargeback or a dispute with their bank, tag the conversation Urgent and escalate to a human straight away. Don't promise anything.",
    name: /chargeback|dispute/i,
    opener: "If you don't answer today I'm filing a chargeback with my bank",
    asks: {},
    branches: [
      {
        label: 'chargeback threat: hands over, tagged',
        answers: {},
        outcome: { handover: true },
        tags: ['Urgent'],
        never: [/refund/i],
        fragment: 'tag the conversation Urgent and escalate to a human straight away',
      },
    ],
    unrelated: 'Which banks do you work with for financing?',
  },
  {
    id: 'used-item-yes-no',
    heldOut: false,
    forms: ['ask whether', 'if ... if not', 'value then reply on one branch', 'quoted replies'],
    instruction:
      'Ask whether the item has been used. If it has been used say "Sorry, we can only accept unused items for a refund." If it has not been used ask for the order number and say "Great, we\'ve emailed you a prepaid return label."',
    name: /return|refund|used/i,
    opener: 'Can I return my sleeping bag for a refund?',
    asks: { used: /used|worn|tried|unused|slept/i, order: ORDER },
    branches: [
      {
        label: 'used: unused items only',
        answers: { used: 'yes I slept in it twice', order: '50911' },
        values: { used: { yes: true } },
        outcome: { says: [/only accept unused/i] },
        never: [/return label/i],
        fragment: 'If it has been used say "Sorry, we can only accept unused items for a refund."',
      },
      {
        label: 'not used: asks the order, the label',
        answers: { used: "no, never used, it's still in the bag", order: '50912' },
        values: { used: { yes: false }, order: { number: 50912 } },
        outcome: { says: [/prepaid return label/i] },
        never: [/only accept unused/i],
        fragment: 'If it has not been used ask for the order number and say "Great, we\'ve emailed you a prepaid return label."',
      },
    ],
    unrelated: 'Where can I find the label with my jacket size?',
  },
  {
    id: 'missing-parcel-typos',
    heldOut: true,
    forms: ['no commas', 'typos', 'lower case', 'hand over', 'tag', 'two values'],
    instruction: 'if customer says there order is missing ask for order nr and adress then hand over to human agent tag Missing parcel',
    name: /missing|lost|parcel|never arrived|not arrived/i,
    opener: 'my order never arrived',
    asks: { order: ORDER, address: /address|adress|where (do you|should|was it)|deliver(ed)? to|ship(ped)? to/i },
    branches: [
      {
        label: 'order and address given: hands over, tagged',
        answers: { order: 'nr 39920', address: '14 Elm Street, Springfield, IL 62704' },
        values: { order: { number: 39920 }, address: { text: '14 Elm Street' } },
        outcome: { handover: true },
        tags: ['Missing parcel'],
        fragment: 'then hand over to human agent tag Missing parcel',
      },
    ],
    unrelated: 'How do I change the address on my account?',
  },
  {
    id: 'bulk-at-least-10',
    heldOut: false,
    forms: ['when', 'at least', 'fewer than', 'transfer', 'tell them'],
    instruction:
      'When a customer wants to order a lot of the same item (at least 10 units), ask how many units they need and transfer them to our sales team. For fewer than 10 units tell them they can order directly on the website.',
    name: /bulk|units|large|quantit|group|many/i,
    opener: 'I want to buy headlamps for my whole scout group',
    asks: { units: /how many|units|quantity/i },
    branches: [
      {
        label: '25 units: transfers',
        answers: { units: '25 units' },
        values: { units: { number: 25 } },
        outcome: { handover: true },
        never: [/website/i],
        fragment: 'at least 10 units ... transfer them to our sales team',
      },
      {
        label: '4 units: order on the website',
        answers: { units: '4 of them' },
        values: { units: { number: 4 } },
        outcome: { says: [/website/i] },
        fragment: 'For fewer than 10 units tell them they can order directly on the website',
      },
    ],
    unrelated: 'How many items can I save in my wishlist?',
  },
  {
    id: 'shipping-fee-if-else',
    heldOut: false,
    forms: ['title line', 'lower-case if', 'above N dollars', 'else', 'two replies'],
    instruction:
      'Shipping fee refund: ask for the order total. if the total is above 75 dollars say "Shipping should have been free, we\'ve refunded the shipping fee." else say "Orders under $75 pay a flat $6.95 shipping fee."',
    name: /shipping/i,
    opener: 'Why was I charged for shipping?',
    asks: { total: AMOUNT },
    branches: [
      {
        label: '82 dollars: refunds the fee',
        answers: { total: 'it was 82 dollars' },
        values: { total: { number: 82 } },
        outcome: { says: [/refunded the shipping fee/i] },
        never: [/flat \$6\.95/i],
        fragment: 'if the total is above 75 dollars say "Shipping should have been free, we\'ve refunded the shipping fee."',
      },
      {
        label: '$40: flat fee',
        answers: { total: '$40' },
        values: { total: { number: 40 } },
        outcome: { says: [/flat \$6\.95/i] },
        never: [/refunded/i],
        fragment: 'else say "Orders under $75 pay a flat $6.95 shipping fee."',
      },
    ],
    unrelated: 'How much does shipping to Hawaii cost?',
  },
  {
    id: 'late-compensation-and',
    heldOut: true,
    forms: ['title line', 'and', 'more than N days', 'over $', 'value not asked for', 'otherwise', 'apologise'],
    instruction:
      'Late delivery compensation: Ask for the order number and how many days late the parcel is. If it is more than 5 days late and the order was over $50, give them the code LATE10 for 10% off. Otherwise apologise and say the parcel is on its way.',
    name: /late|delay|compensat/i,
    opener: 'My parcel is late!',
    asks: { order: ORDER, late: /how (many days|late|long)|days late|late is/i, amount: AMOUNT },
    branches: [
      {
        label: '8 days late, $120: the code',
        answers: { order: '44120', late: '8 days', amount: '$120' },
        values: { order: { number: 44120 }, late: { number: 8 }, amount: { number: 120 } },
        outcome: { says: [/LATE10/] },
        fragment: 'If it is more than 5 days late and the order was over $50, give them the code LATE10 for 10% off',
      },
      {
        label: '8 days late, $30: on its way',
        answers: { order: '44121', late: '8 days', amount: '$30' },
        values: { order: { number: 44121 }, late: { number: 8 }, amount: { number: 30 } },
        outcome: { says: [/on its way/i] },
        never: [/LATE10/],
        fragment: 'and the order was over $50',
      },
      {
        label: '2 days late, $120: on its way',
        answers: { order: '44122', late: '2 days', amount: '$120' },
        values: { order: { number: 44122 }, late: { number: 2 } },
        outcome: { says: [/on its way/i] },
        never: [/LATE10/],
        fragment: 'Otherwise apologise and say the parcel is on its way',
      },
    ],
    unrelated: 'Can I use a discount code on sale items?',
  },
  {
    id: 'delivery-date-ahead',
    heldOut: false,
    forms: ['when', 'no comma before ask', 'a date ahead', 'more than 30 days from today', 'if not'],
    instruction:
      'When a customer asks to change their delivery date ask for the order number and the new date. If the new date is more than 30 days from today, hand over to the logistics team. If not, say "Done, we\'ve moved your delivery."',
    name: /deliver/i,
    opener: 'Can I change the delivery date of my order?',
    asks: { order: ORDER, date: /date|when|which day/i },
    branches: [
      {
        label: '45 days ahead: hands over',
        answers: { order: '90412', date: ahead(45, (d) => `${d} please`) },
        values: { order: { number: 90412 }, date: { daysAhead: 45 } },
        outcome: { handover: true },
        never: [/moved your delivery/i],
        fragment: 'If the new date is more than 30 days from today, hand over to the logistics team',
      },
      {
        label: '10 days ahead: moved',
        answers: { order: '90413', date: ahead(10, (d) => `can you make it ${d}?`, shortDate) },
        values: { order: { number: 90413 }, date: { daysAhead: 10 } },
        outcome: { says: [/moved your delivery/i] },
        fragment: 'If not, say "Done, we\'ve moved your delivery."',
      },
    ],
    unrelated: 'What date does the summer sale end?',
  },
  {
    id: 'unsubscribe-then-delete',
    heldOut: false,
    forms: ['title line', 'then ask if', 'if yes / if no', 'transfer'],
    instruction:
      "Newsletter unsubscribe: ask for the email address. Then ask if they also want their account deleted. If yes, transfer to an agent. If no, say 'You've been unsubscribed, it can take up to 48 hours.'",
    name: /unsubscri|newsletter/i,
    opener: 'Please take me off your newsletter',
    asks: { email: EMAIL, deleted: /delet|remove|close/i },
    branches: [
      {
        label: 'wants the account deleted: transfers',
        answers: { email: 'kim.ortega@example.com', deleted: 'yes please delete it too' },
        values: { email: { text: 'kim.ortega@example.com' }, deleted: { yes: true } },
        outcome: { handover: true },
        never: [/unsubscribed/i],
        fragment: 'If yes, transfer to an agent',
      },
      {
        label: 'keeps the account: unsubscribed',
        answers: { email: 'kim.ortega@example.com', deleted: 'no, keep the account' },
        values: { email: { text: 'kim.ortega@example.com' }, deleted: { yes: false } },
        outcome: { says: [/unsubscribed/i, /48 hours/i] },
        fragment: "If no, say 'You've been unsubscribed, it can take up to 48 hours.'",
      },
    ],
    unrelated: 'How do I delete a review I posted?',
  },
  {
    id: 'returns-numbered-no-trigger-line',
    heldOut: true,
    forms: ['numbered 1)', 'no trigger line', 'days from words', 'tell them and hand over', 'otherwise step', 'a link'],
    instruction:
      '1) Ask the customer for their order number.\n2) Ask how many days ago the order was delivered.\n3) If it was delivered more than 45 days ago, tell them the return window has closed and hand over to a person.\n4) Otherwise send them our returns link: alderpine.example/returns',
    name: /return/i,
    opener: 'I want to send back a jacket',
    asks: { order: ORDER, delivered: /how many days|when|delivered|delivery|how long ago|arrive/i },
    branches: [
      {
        label: 'delivered 50 days ago: hands over',
        answers: { order: '66001', delivered: 'it came 50 days ago' },
        values: { order: { number: 66001 }, delivered: { daysAgo: 50 } },
        outcome: { handover: true },
        never: [/alderpine\.example\/returns/i],
        fragment: 'If it was delivered more than 45 days ago, tell them the return window has closed and hand over to a person',
      },
      {
        label: 'delivered 12 days ago: the link',
        answers: { order: '66002', delivered: '12 days ago' },
        values: { order: { number: 66002 }, delivered: { daysAgo: 12 } },
        outcome: { says: [/alderpine\.example\/returns/i] },
        fragment: 'Otherwise send them our returns link: alderpine.example/returns',
      },
    ],
    unrelated: 'Do you have a price adjustment window after a sale?',
  },
  {
    id: 'safety-escalate',
    heldOut: false,
    forms: ['topic list in brackets', 'dash', 'tag', 'escalate', "don't answer"],
    instruction:
      "Anything about a safety problem with a product (burns, injuries, a stove leaking gas) - tag Safety and escalate to a human immediately, don't try to answer.",
    name: /safety/i,
    opener: 'The gas stove I bought is leaking, I could smell gas in the tent',
    asks: {},
    branches: [
      {
        label: 'gas leak: hands over, tagged',
        answers: {},
        outcome: { handover: true },
        tags: ['Safety'],
        never: [/refund/i],
        fragment: 'tag Safety and escalate to a human immediately',
      },
    ],
    unrelated: 'Does your product warranty cover accidental damage?',
  },
  {
    id: 'invoice-no-else',
    heldOut: false,
    forms: ['if', 'two values', 'then say', 'no branch'],
    instruction:
      'If the customer asks for an invoice, ask for the order number and the company name for the invoice, then say "Thanks, your invoice will arrive by email within one hour."',
    name: /invoice/i,
    opener: 'Can I get an invoice for my order?',
    asks: { order: ORDER, company: /company|business|name/i },
    branches: [
      {
        label: 'order and company: the invoice reply',
        answers: { order: '31822', company: 'Bergman Design LLC' },
        values: { order: { number: 31822 }, company: { text: 'Bergman Design LLC' } },
        outcome: { says: [/within one hour/i] },
        fragment: 'then say "Thanks, your invoice will arrive by email within one hour."',
      },
    ],
    unrelated: 'Can I pay by invoice?',
  },
  {
    id: 'order-change-hours',
    heldOut: true,
    forms: ['title line', 'three values', 'less than 2 hours', '2 hours or more', 'hand over with a because'],
    instruction:
      'Order changes: ask for the order number and what they want to change. If the order was placed less than 2 hours ago, say "No problem, we\'ve updated your order." If it was placed 2 hours ago or more, hand over to a human because it may already be packed.',
    name: /chang|edit|modif|amend/i,
    opener: 'I need to change something in my order',
    asks: { order: ORDER, change: /change|update|would you like|like to|what do you want/i, placed: /when|how long ago|what time|placed/i },
    branches: [
      {
        label: 'placed 30 minutes ago: updated',
        answers: { order: '20118', change: 'I want the green jacket instead of the blue one', placed: 'about 30 minutes ago' },
        values: { order: { number: 20118 } },
        outcome: { says: [/updated your order/i] },
        fragment: 'If the order was placed less than 2 hours ago, say "No problem, we\'ve updated your order."',
      },
      {
        label: 'placed yesterday: hands over',
        answers: { order: '20119', change: 'add a second pair of socks', placed: 'yesterday evening' },
        values: { order: { number: 20119 } },
        outcome: { handover: true },
        never: [/updated your order/i],
        fragment: 'If it was placed 2 hours ago or more, hand over to a human',
      },
    ],
    unrelated: 'How do I change my password?',
  },
  {
    id: 'loyalty-points-90-days',
    heldOut: false,
    forms: ['if', 'two values', 'older than 90 days', 'value not asked for', 'semicolon otherwise', 'tag', 'hand over'],
    instruction:
      'If a member asks about missing loyalty points ask for their member number and the order number. If the order is older than 90 days tell them points can only be added within 90 days of purchase; otherwise tag Loyalty and hand over to an agent.',
    name: /point|loyalty|reward/i,
    opener: 'My loyalty points for my last order are missing',
    asks: { member: /member|membership|loyalty (number|id)/i, order: ORDER, age: WHEN },
    branches: [
      {
        label: 'order 120 days old: within 90 days only',
        answers: { member: 'TR-55821', order: '70021', age: 'about 120 days ago' },
        values: { order: { number: 70021 }, age: { daysAgo: 120, tolerance: 2 } },
        outcome: { says: [/within 90 days/i] },
        fragment: 'If the order is older than 90 days tell them points can only be added within 90 days of purchase',
      },
      {
        label: 'order 3 weeks old: hands over, tagged',
        answers: { member: 'TR-55821', order: '70022', age: '3 weeks ago' },
        values: { order: { number: 70022 }, age: { daysAgo: 21, tolerance: 2 } },
        outcome: { handover: true },
        tags: ['Loyalty'],
        never: [/only be added within 90 days/i],
        fragment: 'otherwise tag Loyalty and hand over to an agent',
      },
    ],
    unrelated: 'How many points do I get per dollar?',
  },
  {
    id: 'hacked-account-star-bullets',
    heldOut: false,
    forms: ['title line', 'bulleted *', 'tag first', 'transfer'],
    instruction: 'Account hacked:\n* tag as Urgent\n* ask for the email on the account\n* transfer to an agent',
    name: /hack|compromis|account/i,
    opener: 'someone hacked my account and changed my password',
    asks: { email: EMAIL },
    branches: [
      {
        label: 'email given: transfers, tagged',
        answers: { email: 'jo.miller@example.com' },
        values: { email: { text: 'jo.miller@example.com' } },
        outcome: { handover: true },
        tags: ['Urgent'],
        fragment: 'transfer to an agent',
      },
    ],
    unrelated: 'How do I create an account?',
  },
  {
    id: 'boot-size-above-13',
    heldOut: true,
    forms: ['title line', 'semicolons', 'above N', 'else', 'value asked but unused'],
    instruction:
      'Sizing help: ask for their height and usual shoe size; if their shoe size is above 13 say "Our boots go up to size 13, sorry!"; else say "Check our size guide at alderpine.example/size-guide."',
    name: /siz/i,
    opener: 'What size hiking boots should I get?',
    asks: { height: /height|tall/i, shoe: /shoe|size/i },
    branches: [
      {
        label: 'shoe size 14: up to 13',
        answers: { height: '6 foot 4', shoe: '14' },
        values: { shoe: { number: 14 } },
        outcome: { says: [/up to size 13/i] },
        never: [/size-guide/i],
        fragment: 'if their shoe size is above 13 say "Our boots go up to size 13, sorry!"',
      },
      {
        label: 'shoe size 10.5: the size guide',
        answers: { height: "5'7", shoe: 'size 10.5' },
        values: { shoe: { number: 10.5 } },
        outcome: { says: [/size-guide/i] },
        never: [/up to size 13/i],
        fragment: 'else say "Check our size guide at alderpine.example/size-guide."',
      },
    ],
    unrelated: 'What is the height of the Summit 2 tent?',
  },
  {
    id: 'student-email-edu',
    heldOut: false,
    forms: ['if', 'text condition (ends in)', 'if not', 'tell them and hand over'],
    instruction:
      'If someone asks for a student discount, ask for their university email. If the email ends in .edu give them the code STUDENT20, if not tell them we need a university email address and hand over.',
    name: /student/i,
    opener: 'Do you have a student discount?',
    asks: { email: EMAIL },
    branches: [
      {
        label: '.edu address: the code',
        answers: { email: 'sam.lee@state.edu' },
        values: { email: { text: 'sam.lee@state.edu' } },
        outcome: { says: [/STUDENT20/] },
        fragment: 'If the email ends in .edu give them the code STUDENT20',
      },
      {
        label: 'gmail address: hands over',
        answers: { email: 'samlee99@gmail.com' },
        values: { email: { text: 'samlee99@gmail.com' } },
        outcome: { handover: true },
        never: [/STUDENT20/],
        fragment: 'if not tell them we need a university email address and hand over',
      },
    ],
    unrelated: 'Do you offer a military discount?',
  },
  {
    id: 'staff-complaint',
    heldOut: false,
    forms: ['when', 'apologise', 'tag', 'ask', 'then escalate'],
    instruction: 'When a customer complains about one of our store staff, apologise, tag as Complaint, ask which store it was and then escalate to a human.',
    name: /complain|staff/i,
    opener: 'The guy at your store was really rude to me yesterday',
    asks: { store: /store|shop|location|which one|where/i },
    branches: [
      {
        label: 'Denver store: hands over, tagged',
        answers: { store: 'the Denver one' },
        values: { store: { text: 'Denver' } },
        outcome: { handover: true },
        tags: ['Complaint'],
        fragment: 'ask which store it was and then escalate to a human',
      },
    ],
    unrelated: 'What are the opening hours of the Denver store?',
  },
  {
    id: 'tent-repair-choice',
    heldOut: true,
    forms: ['title line', 'choice in brackets', 'if it is X', 'or', 'hand over'],
    instruction:
      'Tent repairs. Ask what is damaged (pole, zip or fabric). If it\'s the pole say "We\'ll post you a free replacement pole section." If it\'s the zip or the fabric, hand over to our repair team.',
    name: /tent|repair/i,
    opener: 'My tent is damaged, can you repair it?',
    asks: { part: /what|damaged|broken|which part|pole|zip|fabric/i },
    branches: [
      {
        label: 'pole: a replacement section',
        answers: { part: 'one of the poles snapped' },
        outcome: { says: [/replacement pole/i] },
        fragment: 'If it\'s the pole say "We\'ll post you a free replacement pole section."',
      },
      {
        label: 'zip: hands over',
        answers: { part: 'the zip on the door is broken' },
        outcome: { handover: true },
        never: [/replacement pole/i],
        fragment: "If it's the zip or the fabric, hand over to our repair team",
      },
      {
        label: 'fabric: hands over',
        answers: { part: "there's a tear in the fabric" },
        outcome: { handover: true },
        never: [/replacement pole/i],
        fragment: "If it's the zip or the fabric, hand over to our repair team",
      },
    ],
    unrelated: 'How do I pitch my tent in strong wind?',
  },
  {
    id: 'subscription-cancel-reason',
    heldOut: false,
    forms: ['title line', 'two values', 'if the reason is', 'otherwise', 'tag on one branch'],
    instruction:
      'Cancel subscription box: ask for the email on the subscription and the reason they\'re cancelling. If the reason is price, offer 20% off the next 3 boxes with code STAY20. Otherwise say "Your subscription has been cancelled." and tag Cancellation.',
    name: /cancel|subscription/i,
    opener: 'I want to cancel my Trail Box subscription',
    asks: { email: EMAIL, reason: /reason|why/i },
    branches: [
      {
        label: 'too expensive: the offer',
        answers: { email: 'ali.hassan@example.com', reason: "it's too expensive for me" },
        values: { email: { text: 'ali.hassan@example.com' } },
        outcome: { says: [/STAY20/] },
        never: [/has been cancelled/i],
        fragment: 'If the reason is price, offer 20% off the next 3 boxes with code STAY20',
      },
      {
        label: 'moving abroad: cancelled, tagged',
        answers: { email: 'ali.hassan@example.com', reason: "I'm moving abroad" },
        values: { email: { text: 'ali.hassan@example.com' } },
        outcome: { says: [/has been cancelled/i] },
        tags: ['Cancellation'],
        never: [/STAY20/],
        fragment: 'Otherwise say "Your subscription has been cancelled." and tag Cancellation',
      },
    ],
    unrelated: 'How do I update the email on my account?',
  },
  {
    id: 'double-charge-date',
    heldOut: false,
    forms: ['title line', 'date in words', 'in the last 7 days', "if it's older", 'hand over', 'tag'],
    instruction:
      "Double charges: Ask for the last 4 digits of the card and the date of the charge. If the charge was in the last 7 days tell them it's probably a pending authorisation that will disappear within 3 days. If it's older, hand over to billing and tag Refund.",
    name: /charge|double|duplicate|twice/i,
    opener: 'I was charged twice for the same order',
    asks: { card: /digits|card/i, date: /date|when/i },
    branches: [
      {
        label: 'charged 2 days ago: pending authorisation',
        answers: { card: '4421', date: ago(2, (d) => `on ${d}`, shortDate) },
        values: { card: { number: 4421 }, date: { daysAgo: 2 } },
        outcome: { says: [/pending/i, /3 days/i] },
        fragment: "If the charge was in the last 7 days tell them it's probably a pending authorisation that will disappear within 3 days",
      },
      {
        label: 'charged 20 days ago: hands over, tagged',
        answers: { card: 'it ends in 4421', date: ago(20, (d) => d) },
        values: { card: { number: 4421 }, date: { daysAgo: 20 } },
        outcome: { handover: true },
        tags: ['Refund'],
        never: [/pending/i],
        fragment: "If it's older, hand over to billing and tag Refund",
      },
    ],
    unrelated: 'What cards do you accept?',
  },
  {
    id: 'terse-refund-over-100',
    heldOut: true,
    forms: ['lower case', 'pls', 'terse', 'value not asked for', 'over N dollars', 'colon instead of if'],
    instruction: "pls hand over anyone asking about a refund over 100 dollars. refunds of 100 or less: say we'll process it within 3 days",
    name: /refund/i,
    opener: 'can I get a refund for my tent',
    asks: { amount: AMOUNT },
    branches: [
      {
        label: '$250: hands over',
        answers: { amount: "It's $250 for the tent" },
        values: { amount: { number: 250 } },
        outcome: { handover: true },
        never: [/3 days/i],
        fragment: 'hand over anyone asking about a refund over 100 dollars',
      },
      {
        label: '60 bucks: within 3 days',
        answers: { amount: 'it was 60 bucks' },
        values: { amount: { number: 60 } },
        outcome: { says: [/3 days/i] },
        fragment: "refunds of 100 or less: say we'll process it within 3 days",
      },
    ],
    unrelated: 'What is your refund policy for sale items?',
  },
  {
    id: 'callback-no-handover',
    heldOut: false,
    forms: ['when', 'two values', 'quoted reply', "don't hand over"],
    instruction:
      'When the customer asks for a callback: ask for their phone number and the best time to call. Say "Thanks! Someone from our team will call you." Don\'t hand over.',
    name: /call/i,
    opener: 'Can someone call me back please?',
    asks: { phone: /phone|number|reach you/i, time: /time|when/i },
    branches: [
      {
        label: 'number and time: the callback reply',
        answers: { phone: '+1 415 555 0199', time: 'weekday mornings' },
        values: { phone: { text: '415 555 0199' } },
        outcome: { says: [/call you/i] },
        fragment: 'Say "Thanks! Someone from our team will call you." Don\'t hand over.',
      },
    ],
    unrelated: 'Do you have a team that handles corporate orders?',
  },
  {
    id: 'gift-wrap-if-shipped',
    heldOut: true,
    forms: ['if', 'value not asked for', 'otherwise', 'tag on one branch', 'quoted replies'],
    instruction:
      'If someone asks to add gift wrapping to an order that\'s already placed: ask for the order number. If the order has shipped, say "Sorry, it\'s too late to add gift wrapping to this order." Otherwise tag as Gift wrap and say "Done! Gift wrapping has been added ($5)."',
    name: /gift/i,
    opener: 'Can I still add gift wrapping to my order?',
    asks: { order: ORDER, shipped: SHIPPED },
    branches: [
      {
        label: 'shipped: too late',
        answers: { order: '51003', shipped: 'yes it shipped this morning' },
        values: { order: { number: 51003 } },
        outcome: { says: [/too late/i] },
        never: [/has been added/i],
        fragment: 'If the order has shipped, say "Sorry, it\'s too late to add gift wrapping to this order."',
      },
      {
        label: 'not shipped: added, tagged',
        answers: { order: '51004', shipped: 'no not yet' },
        values: { order: { number: 51004 } },
        outcome: { says: [/has been added/i] },
        tags: ['Gift wrap'],
        never: [/too late/i],
        fragment: 'Otherwise tag as Gift wrap and say "Done! Gift wrapping has been added ($5)."',
      },
    ],
    unrelated: 'Do you sell gift cards?',
  },
  {
    id: 'customs-eu-or-uk-and-over',
    heldOut: false,
    forms: ['title line', 'or inside and', 'over €', 'transfer', 'otherwise say', 'a link'],
    instruction:
      'Customs charges: ask which country they\'re in and how much customs charged them. If they\'re in the EU or UK and it\'s over €30 transfer to an agent, otherwise say "Import duties are paid by the customer, see alderpine.example/customs."',
    name: /customs|import|dut/i,
    opener: 'I had to pay customs on my order, why?',
    asks: { country: /country|where|located|live|based/i, amount: /how much|amount|charge|cost|pay/i },
    branches: [
      {
        label: 'Germany, €45: transfers',
        answers: { country: 'Germany', amount: '€45' },
        values: { country: { text: 'Germany' }, amount: { number: 45 } },
        outcome: { handover: true },
        never: [/paid by the customer/i],
        fragment: "If they're in the EU or UK and it's over €30 transfer to an agent",
      },
      {
        label: 'Canada, $45: the customs page',
        answers: { country: 'Canada', amount: '$45' },
        values: { country: { text: 'Canada' }, amount: { number: 45 } },
        outcome: { says: [/alderpine\.example\/customs/i] },
        fragment: 'otherwise say "Import duties are paid by the customer, see alderpine.example/customs."',
      },
      {
        label: 'France, €12: the customs page',
        answers: { country: "I'm in France", amount: '12 euros' },
        values: { country: { text: 'France' }, amount: { number: 12 } },
        outcome: { says: [/alderpine\.example\/customs/i] },
        fragment: "and it's over €30",
      },
    ],
    unrelated: 'Do you ship to the UK?',
  },
  {
    id: 'rental-late-fee',
    heldOut: true,
    forms: ['title line', 'up to N', 'N or more', 'colons instead of if', 'tag on one branch'],
    instruction:
      "Rental returns: ask for the rental number and how many days late the return is. Up to 2 days late: say there's no late fee. 3 days or more: say a late fee of $10 per day applies and tag Rental.",
    name: /rental|rent|late/i,
    opener: "I'm returning my rented kayak a bit late",
    asks: { rental: /rental|booking|number/i, late: /how many days|how late|days late|late is/i },
    branches: [
      {
        label: '1 day late: no fee',
        answers: { rental: 'R-1184', late: '1 day late' },
        values: { late: { number: 1 } },
        outcome: { says: [/no late fee|no fee/i] },
        never: [/\$10/],
        fragment: "Up to 2 days late: say there's no late fee",
      },
      {
        label: '4 days late: $10 a day, tagged',
        answers: { rental: 'R-1185', late: '4 days' },
        values: { late: { number: 4 } },
        outcome: { says: [/\$10 per day/i] },
        tags: ['Rental'],
        never: [/no late fee/i],
        fragment: '3 days or more: say a late fee of $10 per day applies and tag Rental',
      },
    ],
    unrelated: 'What are your fees for international shipping?',
  },
];
