// How the test-case checks read wording they were never tuned on (issue 30): `says` (a reply says a
// lead's phrase) and `newFacts` (the facts a published fix added, for a case made from a conversation).
// The cases below were written once, the way leads and agents write, after the methods were done,
// and are not to be tuned on: a miss is reported, not fixed here. Run: npm run bench:testing-phrases
import { newFacts } from '../src/modules/testing/cases.service.js';
import { says } from '../src/modules/testing/expectations.js';

/** [reply, phrase a lead expects, whether a person would say the reply says it] */
const PHRASES: [string, string, boolean][] = [
  ['Returns are accepted within thirty days of delivery.', '30 days', true],
  ['You can send it back up to 30 days after it arrives.', '30 days', true],
  ['Our return window is 30 days.', '30-day', true],
  ['Refunds land in 5-7 business days.', '5 to 7 business days', true],
  ['Shipping is free over €50.', 'free shipping', true],
  ['We ship to Canada, yes!', 'ship to canada', true],
  ['Standard delivery takes 3 working days.', '3 business days', true],
  ['Contact support@shop.example for help.', 'support@shop.example', true],
  ['Orders over $100 ship free.', '$100', true],
  ['You cannot return sale items.', 'can return sale items', false],
  ['We do not ship to Mars.', 'ship to mars', false],
  ['Returns are accepted within 60 days.', '6 days', false],
];

/** [old answer, new answer after the fix, the facts a person would take from it] */
const FIXES: [string, string, string[]][] = [
  ['Returns are accepted within 30 days.', 'Returns are accepted within 45 days of delivery.', ['45 days']],
  ["I'm sorry, I don't know.", 'Yes, we ship to Canada within 5 business days for $15.', ['5 business days', '$15']],
  ['Express costs 9 euros.', 'Express shipping costs 12 euros and arrives next day.', ['12 euros']],
  ['Email us.', 'Email returns@shop.example with your order number.', ['returns@shop.example']],
  ['You can call us.', 'Call us on +1 (555) 010-2030, Monday to Friday.', ['+1 (555) 010-2030']],
  ['See our site.', 'See https://shop.example/returns for the form.', ['https://shop.example/returns']],
  ['Gift cards never expire.', 'Gift cards expire after two years.', ['two years']],
  ['Refunds take a while.', 'Refunds take up to ten business days.', ['ten business days']],
  ['Orders ship in 2 days.', 'Orders ship in 2 days; weekend orders ship on Monday.', ['Monday']],
  ['Discount is 10%.', 'The student discount is 15%.', ['15%']],
];

let phraseHits = 0;
const phraseMisses: string[] = [];
for (const [reply, phrase, expected] of PHRASES) {
  if (says(reply, phrase) === expected) phraseHits += 1;
  else phraseMisses.push(`says(${JSON.stringify(reply)}, ${JSON.stringify(phrase)}) should be ${expected}`);
}
let exact = 0;
let found = 0;
let wanted = 0;
let extra = 0;
const fixMisses: string[] = [];
for (const [before, after, expected] of FIXES) {
  const got = newFacts(before, after);
  const norm = (x: string) => x.toLowerCase();
  const hit = expected.filter((e) => got.some((g) => norm(g) === norm(e))).length;
  found += hit;
  wanted += expected.length;
  extra += got.filter((g) => !expected.some((e) => norm(e) === norm(g))).length;
  if (hit === expected.length && got.length === expected.length) exact += 1;
  else fixMisses.push(`${JSON.stringify(after)}: took ${JSON.stringify(got)}, a person takes ${JSON.stringify(expected)}`);
}
console.log('| check (untuned cases) | result |\n|---|---:|');
console.log(`| says: reply says the phrase, as a person judges | ${phraseHits}/${PHRASES.length} |`);
console.log(`| newFacts: fixes whose facts were taken exactly | ${exact}/${FIXES.length} |`);
console.log(`| newFacts: facts found / facts a person takes | ${found}/${wanted} |`);
console.log(`| newFacts: extra phrases taken | ${extra} |`);
for (const m of [...phraseMisses, ...fixMisses]) console.log(`- miss: ${m}`);
