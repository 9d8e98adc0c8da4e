// A fresh held-out part of the first-day set's rule cases (bench/first-day/run.ts): instructions as
// the support lead of another business, a home-appliance store ("Brightwell Appliances": fridges,
// washers, dryers, dishwashers, ovens; delivery, installation, a repair plan called Brightwell Care,
// appliance rentals, trade sales to landlords), types them into "create a rule", each with the
// conversations the lead would try in the rule's test panel and what they expect to see.
//
// Written blind: without running the set or reading the engine, after the tuned cases of
// rules-cases.ts, in their format and over the same forms (commas or none, if / when / unless /
// otherwise / else, numbered or bulleted steps, "escalate / hand over / transfer", several values,
// and / or, numbers and dates in the customer's words, tags, "don't hand over", a trigger line).
// Every case is held out: nobody tunes an engine on them.
import { longDate, type RuleCase, type Said, shortDate } from './rules-cases.js';

// Dates as customers write them, relative to the day the set runs (as in rules-cases.ts).
const shift = (today: Date, days: number) => new Date(today.getTime() + days * 86_400_000);
const ago = (days: number, text: (date: string) => string, format = longDate): Said => (today) => text(format(shift(today, -days)));
const ahead = (days: number, text: (date: string) => string, format = longDate): Said => (today) => text(format(shift(today, days)));

// Questions, as a flow may word them.
const ORDER = /order (number|no\b|nr|#|id)|order ?#|number of (your|the) order|which order/i;
const PRICE = /how much|cost|price|paid|pay\b|amount|value|total|spen[dt]/i;

export const FRESH_RULE_CASES: RuleCase[] = [
  {
    id: 'fresh-dented-delivery-numbered',
    heldOut: true,
    forms: ['trigger line', 'numbered steps', 'two values', 'over $', 'tag on one branch', 'hand over', 'otherwise step', 'quoted reply'],
    instruction:
      'When an appliance arrives dented or scratched:\n1. Ask for the order number\n2. Ask what the appliance cost\n3. If it cost over $500, tag it Damaged and hand over to an agent\n4. Otherwise say "So sorry about that! We\'ll refund 15% of the price to your card within 3 days, and you can keep it."',
    name: /dent|scratch|damage|deliver|arriv/i,
    opener: 'The fridge your guys brought this morning has a big dent down the side',
    asks: { order: ORDER, cost: PRICE },
    branches: [
      {
        label: 'fridge, $1,249: hands over, tagged',
        answers: { order: "it's 52817", cost: 'it was $1,249' },
        values: { order: { number: 52817 }, cost: { number: 1249 } },
        outcome: { handover: true },
        tags: ['Damaged'],
        never: [/15 ?%/],
        fragment: 'If it cost over $500, tag it Damaged and hand over to an agent',
      },
      {
        label: 'microwave, $189: 15% back, not tagged',
        opener: 'The microwave came today with a long scratch across the door',
        answers: { order: '#52903', cost: '$189' },
        values: { order: { number: 52903 }, cost: { number: 189 } },
        outcome: { says: [/15 ?%/, /keep it/i] },
        fragment: 'Otherwise say "So sorry about that! We\'ll refund 15% of the price to your card within 3 days, and you can keep it."',
      },
    ],
    unrelated: 'Is there a price difference between the white and the silver Frostline fridge?',
  },
  {
    id: 'fresh-send-back-no-commas',
    heldOut: true,
    forms: ['no commas', 'when', 'if / otherwise', 'hand over', 'date in words', 'date without a year', 'two values', 'reply not quoted'],
    instruction:
      'when a customer wants to send back an appliance they no longer want ask for the order number and the delivery date if it was delivered more than 30 days ago hand over to an agent otherwise say we will collect it for free within 5 business days',
    name: /return|send(ing)?.?back|collect|unwanted|refund/i,
    opener: "I bought a dishwasher from you but it doesn't fit under my counter, can I get my money back?",
    asks: { order: ORDER, delivered: /when|date|deliver|arriv|how long ago|days ago/i },
    branches: [
      {
        label: 'delivered 42 days ago (a date): hands over',
        answers: { order: 'order 61520', delivered: ago(42, (d) => `it came on ${d}`) },
        values: { order: { number: 61520 }, delivered: { daysAgo: 42 } },
        outcome: { handover: true },
        never: [/collect it|pick it up|5 business days/i],
        fragment: 'if it was delivered more than 30 days ago hand over to an agent',
      },
      {
        label: 'delivered 9 days ago (no year): free collection',
        answers: { order: '61544', delivered: ago(9, (d) => d, shortDate) },
        values: { order: { number: 61544 }, delivered: { daysAgo: 9 } },
        outcome: { says: [/collect/i, /5 business days/i] },
        fragment: 'otherwise say we will collect it for free within 5 business days',
      },
    ],
    unrelated: 'Do you offer free installation with every dishwasher?',
  },
  {
    id: 'fresh-care-plan-claim-bullets',
    heldOut: true,
    forms: ['title line without colon', 'bulleted -', 'three values in one step', 'more than N years', 'date in words', 'else', 'escalate', 'tag on one branch'],
    instruction:
      'Brightwell Care claims\n- ask for the order number, what is wrong with the appliance and when they bought it\n- if they bought it more than 5 years ago say "Sorry, Brightwell Care covers the first 5 years only."\n- else tag Warranty and escalate to an agent',
    name: /care|warrant|claim|cover|repair|plan/i,
    opener: "My washing machine won't spin anymore. I paid extra for the repair plan, can someone come and fix it?",
    asks: {
      order: ORDER,
      fault: /wrong|problem|issue|fault|describe|happen|symptom|not working|going on/i,
      bought: /when|what date|which date|how long ago|how old|purchase|bought|buy/i,
    },
    branches: [
      {
        label: 'bought over 6 years ago (a date): first 5 years only',
        answers: { order: '40218', fault: "the drum doesn't turn at all", bought: ago(6 * 365 + 30, (d) => `I bought it on ${d}`) },
        values: { order: { number: 40218 }, bought: { daysAgo: 6 * 365 + 30, tolerance: 3 } },
        outcome: { says: [/first 5 years/i] },
        fragment: 'if they bought it more than 5 years ago say "Sorry, Brightwell Care covers the first 5 years only."',
      },
      {
        label: 'bought 18 months ago (a date): escalates, tagged',
        answers: { order: '40377', fault: 'it bangs really loudly when it spins', bought: ago(548, (d) => d) },
        values: { order: { number: 40377 }, bought: { daysAgo: 548, tolerance: 3 } },
        outcome: { handover: true },
        tags: ['Warranty'],
        never: [/first 5 years/i],
        fragment: 'else tag Warranty and escalate to an agent',
      },
    ],
    unrelated: 'How long is the warranty on a new microwave?',
  },
  {
    id: 'fresh-noisy-fridge-unless',
    heldOut: true,
    forms: ['one sentence', 'or in the trigger', 'unless', 'more than N years', 'value implied, not asked for', 'a code'],
    instruction:
      'Offer a free engineer visit to anyone whose fridge is noisy or leaking, unless the fridge is more than 8 years old, in that case say we no longer stock parts for it and give them the code NEWFRIDGE100 for $100 off a new one.',
    name: /fridge|engineer|nois|leak|repair/i,
    opener: "My fridge has been humming really loudly all week and now there's a puddle underneath it",
    asks: { age: /how old|age|years|when did you (buy|get|purchase)|bought|purchase|had it/i },
    branches: [
      {
        label: 'about 11 years old: the code, no visit',
        answers: { age: "it's about 11 years old" },
        values: { age: { number: 11 } },
        outcome: { says: [/NEWFRIDGE100/] },
        never: [/free engineer|book(ed)? (an|the|your) engineer|engineer (will|can) (come|visit)/i],
        fragment: 'unless the fridge is more than 8 years old, in that case say we no longer stock parts for it and give them the code NEWFRIDGE100 for $100 off a new one',
      },
      {
        label: 'about 3 years old: a free engineer visit',
        answers: { age: 'about 3 years old' },
        values: { age: { number: 3 } },
        outcome: { says: [/engineer/i] },
        never: [/NEWFRIDGE100/],
        fragment: 'Offer a free engineer visit to anyone whose fridge is noisy or leaking',
      },
    ],
    unrelated: 'Which fridge freezers have an ice maker?',
  },
  {
    id: 'fresh-cancel-soon-or-installation',
    heldOut: true,
    forms: ['trigger line with colon', 'three values', 'a date ahead', '"tomorrow"', 'in the next N days', 'or', 'transfer', 'otherwise', 'tag on one branch'],
    instruction:
      'When someone wants to cancel an order:\nAsk for the order number, the delivery date and whether installation was booked. If the delivery is in the next 2 days or installation was booked, transfer to an agent. Otherwise say "Done, your order is cancelled. The refund will reach your card in 3 to 5 business days." and tag Cancellation.',
    name: /cancel/i,
    opener: "I've changed my mind about the oven I ordered, I don't want it anymore",
    asks: {
      order: ORDER,
      date: /date|when|which day|scheduled|due|deliver|arriv/i,
      install: /install|fit(ted|ting)?\b|connect|hook(ed)? up|set ?up/i,
    },
    branches: [
      {
        label: 'delivery tomorrow: transfers',
        answers: { order: '70815', date: 'tomorrow', install: 'no, just the delivery' },
        values: { order: { number: 70815 }, date: { daysAhead: 1 } },
        outcome: { handover: true },
        never: [/is cancelled/i],
        fragment: 'If the delivery is in the next 2 days or installation was booked, transfer to an agent',
      },
      {
        label: 'delivery in 12 days, no installation: cancelled, tagged',
        answers: { order: '70822', date: ahead(12, (d) => `it's due on ${d}`), install: 'no' },
        values: { order: { number: 70822 }, date: { daysAhead: 12 }, install: { yes: false } },
        outcome: { says: [/is cancelled/i, /3 to 5 business days/i] },
        tags: ['Cancellation'],
        fragment: 'Otherwise say "Done, your order is cancelled. The refund will reach your card in 3 to 5 business days." and tag Cancellation',
      },
      {
        label: 'delivery in 12 days (no year) with installation: transfers',
        answers: { order: '70823', date: ahead(12, (d) => d, shortDate), install: 'yes, the installer is booked as well' },
        values: { order: { number: 70823 }, date: { daysAhead: 12 }, install: { yes: true } },
        outcome: { handover: true },
        never: [/is cancelled/i],
        fragment: 'or installation was booked, transfer to an agent',
      },
    ],
    unrelated: 'Can I pay for installation in monthly instalments?',
  },
  {
    id: 'fresh-landlord-trade-no-handover',
    heldOut: true,
    forms: ['one sentence', 'or in the trigger', 'three values', 'tag', 'quoted reply', "don't hand over"],
    instruction:
      'Landlords or property managers buying for several homes: ask for the company name, how many appliances they need and a phone number, tag it Wholesale and say "Thanks! Our trade team will call you within one business day with a quote." Don\'t hand over.',
    name: /landlord|trade|wholesale|propert|bulk|quote/i,
    opener: 'Hi, I look after a block of rental apartments and all the washing machines need replacing',
    asks: {
      company: /company|business|agency|organi[sz]ation|firm|name/i,
      units: /how many|number of|quantity|units|appliances/i,
      phone: /phone|call|reach you|contact/i,
    },
    branches: [
      {
        label: 'all three given: the trade reply, tagged',
        answers: { company: 'Harbor Property Management', units: '14 washing machines', phone: '312 555 0187' },
        values: { company: { text: 'Harbor Property' }, units: { number: 14 }, phone: { text: '555 0187' } },
        outcome: { says: [/one business day/i] },
        tags: ['Wholesale'],
        fragment: 'tag it Wholesale and say "Thanks! Our trade team will call you within one business day with a quote." Don\'t hand over.',
      },
    ],
    unrelated: 'Can your team recycle my old washing machine?',
  },
  {
    id: 'fresh-price-drop-and',
    heldOut: true,
    forms: ['title line', 'three values', 'and', 'in the last N days', 'more than $', 'date without a year', 'tag on one branch', 'otherwise say'],
    instruction:
      'Price drops: ask for the order number, the date they bought it and how much the price has dropped. If they bought it in the last 14 days and the drop is more than $20, say "Good news! We\'ll refund the difference to your card within 5 days." and tag Refund. Otherwise say "Sorry, we only refund price drops of more than $20 within 14 days of purchase."',
    name: /price/i,
    opener: 'Annoying - the dishwasher I just got from you is on sale now. Do I get anything back?',
    asks: {
      order: ORDER,
      bought: /when|what date|which date|how (long|many days) ago|purchase|bought|buy/i,
      drop: /how much|drop|difference|lower|went down|cheaper|sale price|new price|reduc/i,
    },
    branches: [
      {
        label: 'bought 6 days ago, $70 less: the difference back, tagged',
        answers: { order: '83310', bought: ago(6, (d) => `on ${d}`, shortDate), drop: "it's $70 cheaper now" },
        values: { order: { number: 83310 }, bought: { daysAgo: 6 }, drop: { number: 70 } },
        outcome: { says: [/refund the difference/i] },
        tags: ['Refund'],
        never: [/only refund price drops/i],
        fragment: 'If they bought it in the last 14 days and the drop is more than $20, say "Good news! We\'ll refund the difference to your card within 5 days." and tag Refund',
      },
      {
        label: 'bought 30 days ago, $70 less: sorry',
        answers: { order: '83311', bought: ago(30, (d) => d), drop: '$70' },
        values: { order: { number: 83311 }, bought: { daysAgo: 30 }, drop: { number: 70 } },
        outcome: { says: [/only refund price drops/i] },
        never: [/refund the difference/i],
        fragment: 'Otherwise say "Sorry, we only refund price drops of more than $20 within 14 days of purchase."',
      },
      {
        label: 'bought 6 days ago, $15 less: sorry',
        answers: { order: '83312', bought: '6 days ago', drop: 'only 15 dollars' },
        values: { order: { number: 83312 }, bought: { daysAgo: 6 }, drop: { number: 15 } },
        outcome: { says: [/only refund price drops/i] },
        never: [/refund the difference/i],
        fragment: 'and the drop is more than $20',
      },
    ],
    unrelated: "What's the price of the Aqualine 8 kg washer?",
  },
  {
    id: 'fresh-sparks-safety-two-tags',
    heldOut: true,
    forms: ['topic list before a colon', 'two tags', 'tell them', 'then escalate', 'no values'],
    instruction:
      'Sparks, smoke or a burning smell from any appliance: tag Safety and Urgent, tell them to switch it off at the wall and not use it again, then escalate to a human right away.',
    name: /spark|smoke|burn|safety|smell|fire/i,
    opener: 'Help, my tumble dryer went bang and a flash came out of the plug!',
    asks: {},
    branches: [
      {
        label: 'flash at the plug: hands over, tagged',
        answers: {},
        outcome: { handover: true },
        tags: ['Safety', 'Urgent'],
        fragment: 'tag Safety and Urgent, tell them to switch it off at the wall and not use it again, then escalate to a human right away',
      },
      {
        label: 'smoke from the oven: hands over, tagged',
        opener: "There's smoke coming out of the back of the oven I got last month",
        answers: {},
        outcome: { handover: true },
        tags: ['Safety', 'Urgent'],
        fragment: 'tag Safety and Urgent, tell them to switch it off at the wall and not use it again, then escalate to a human right away',
      },
    ],
    unrelated: 'Which appliance uses the least electricity?',
  },
  {
    id: 'fresh-installation-booking-no-handover',
    heldOut: true,
    forms: ['when', 'no comma before ask', 'three values', 'a date ahead', 'at least N days from today', 'else', "don't hand over to an agent"],
    instruction:
      'When someone wants to book an installation ask for their order number, their zip code and which day suits them. If the day is at least 3 days from today say "You\'re booked in! The installer will text you on the morning of the visit." else say "We need 3 days\' notice for installations, please choose a later day." Don\'t hand over to an agent.',
    name: /install/i,
    opener: 'Can someone come and plumb in the new washing machine I ordered?',
    asks: {
      order: ORDER,
      zip: /zip|postal|post ?code|address|where|area/i,
      day: /\bday\b|date|when|suit|convenient|prefer|time/i,
    },
    branches: [
      {
        label: '7 days ahead: booked',
        answers: { order: '91450', zip: '60614', day: ahead(7, (d) => `${d} would be perfect`) },
        values: { order: { number: 91450 }, zip: { number: 60614 }, day: { daysAhead: 7 } },
        outcome: { says: [/booked in/i, /text you/i] },
        never: [/notice|later day/i],
        fragment: 'If the day is at least 3 days from today say "You\'re booked in! The installer will text you on the morning of the visit."',
      },
      {
        label: 'tomorrow (no year): 3 days notice',
        answers: { order: '91451', zip: '60622', day: ahead(1, (d) => `could they come on ${d}?`, shortDate) },
        values: { order: { number: 91451 }, day: { daysAhead: 1 } },
        outcome: { says: [/3 days'? notice/i] },
        never: [/booked in/i],
        fragment: 'else say "We need 3 days\' notice for installations, please choose a later day." Don\'t hand over to an agent.',
      },
    ],
    unrelated: 'How many days does fridge delivery take?',
  },
  {
    id: 'fresh-exchange-sealed-or-installed',
    heldOut: true,
    forms: ['title line', 'three values', 'yes/no values', 'or', 'else', 'tag on one branch', "single-quoted replies"],
    instruction:
      "Exchanges for another model or colour: ask for the order number, whether the appliance has been installed and whether the box has been opened. If it has been installed or the box is opened say 'Sorry, we can only exchange appliances that are still sealed in their box.' else tag Exchange and say 'No problem! We'll bring the new one and take the old one back on the same trip, at no cost.'",
    name: /exchang|swap|colou?r|model/i,
    opener: 'The fridge I ordered is white but I really wanted the silver one, can I swap it?',
    asks: {
      order: ORDER,
      installed: /install|plumb|connect|hook(ed)? up|plugged|set up|used/i,
      opened: /open|box|packag|unpack|seal|wrap/i,
    },
    branches: [
      {
        label: 'not installed, box unopened: swapped, tagged',
        answers: { order: '27704', installed: "no, it hasn't been installed", opened: "no, we haven't opened the box" },
        values: { order: { number: 27704 } },
        outcome: { says: [/no cost/i] },
        tags: ['Exchange'],
        never: [/still sealed/i],
        fragment: "else tag Exchange and say 'No problem! We'll bring the new one and take the old one back on the same trip, at no cost.'",
      },
      {
        label: 'box opened, not installed: sealed only',
        answers: { order: '27705', installed: "no, it hasn't been installed", opened: 'yes, we opened the box to check the colour' },
        values: { order: { number: 27705 } },
        outcome: { says: [/still sealed/i] },
        never: [/no cost/i],
        fragment: "or the box is opened say 'Sorry, we can only exchange appliances that are still sealed in their box.'",
      },
      {
        label: 'installed: sealed only',
        answers: { order: '27706', installed: "yes, it's installed and running", opened: 'yes, the box has been opened' },
        values: { order: { number: 27706 } },
        outcome: { says: [/still sealed/i] },
        never: [/no cost/i],
        fragment: "If it has been installed or the box is opened say 'Sorry, we can only exchange appliances that are still sealed in their box.'",
      },
    ],
    unrelated: 'What colour options does the Frostline fridge come in?',
  },
  {
    id: 'fresh-parcel-dispatch-lower-case',
    heldOut: true,
    forms: ['lower case', 'missing apostrophes', 'nr', 'date in words', 'more than N days old', 'if its less', 'transfer', 'tag', 'reply not quoted'],
    instruction:
      'if a parcel hasnt arrived ask for the order nr and the date of the dispatch email. if the dispatch email is more than 7 days old transfer to an agent and tag Missing parcel. if its less say parcels can take up to 7 business days to arrive, please give it a few more days',
    name: /parcel|missing|lost|arriv|deliver|dispatch|late/i,
    opener: 'Still no sign of the coffee machine I ordered, where is it??',
    asks: { order: ORDER, dispatched: /when|date|dispatch|shipped|sent|email/i },
    branches: [
      {
        label: 'dispatched 12 days ago (a date): transfers, tagged',
        answers: { order: 'nr 33019', dispatched: ago(12, (d) => `the email came on ${d}`) },
        values: { order: { number: 33019 }, dispatched: { daysAgo: 12 } },
        outcome: { handover: true },
        tags: ['Missing parcel'],
        never: [/up to 7 business days/i],
        fragment: 'if the dispatch email is more than 7 days old transfer to an agent and tag Missing parcel',
      },
      {
        label: 'dispatched 3 days ago: give it a few days',
        answers: { order: '33020', dispatched: '3 days ago' },
        values: { order: { number: 33020 }, dispatched: { daysAgo: 3 } },
        outcome: { says: [/7 business days/i] },
        fragment: 'if its less say parcels can take up to 7 business days to arrive, please give it a few more days',
      },
    ],
    unrelated: 'Do you send a reminder email before an installer visit?',
  },
  {
    id: 'fresh-rental-return-months',
    heldOut: true,
    forms: ['title line', 'two values', 'less than N months', 'N months or more', 'tag on every path', 'quoted replies'],
    instruction:
      'Rental returns: ask for the rental agreement number and how many months they have had the machine. If less than 6 months say "Ending your rental before 6 months costs a $50 early-return fee." If 6 months or more say "No fee, we\'ll collect the machine for free." Tag Rental either way.',
    name: /rent|return/i,
    opener: "We're moving out at the end of the month, how do I give back the washer we've been paying for monthly?",
    asks: {
      agreement: /agreement|contract|rental (number|id|ref)|reference|account number/i,
      months: /how (long|many months)|months|since when|when did|start/i,
    },
    branches: [
      {
        label: '4 months: the $50 fee, tagged',
        answers: { agreement: 'RA-20931', months: 'about 4 months' },
        values: { months: { number: 4 } },
        outcome: { says: [/\$50/] },
        tags: ['Rental'],
        never: [/no fee/i],
        fragment: 'If less than 6 months say "Ending your rental before 6 months costs a $50 early-return fee."',
      },
      {
        label: '14 months: no fee, tagged',
        answers: { agreement: 'RA-18770', months: '14 months' },
        values: { months: { number: 14 } },
        outcome: { says: [/no fee/i] },
        tags: ['Rental'],
        never: [/\$50/],
        fragment: 'If 6 months or more say "No fee, we\'ll collect the machine for free."',
      },
    ],
    unrelated: 'What fee do you charge to take away an old fridge?',
  },
];
