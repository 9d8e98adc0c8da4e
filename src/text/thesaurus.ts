import { rawWords, stem } from './terms.js';

/**
 * Words and phrases customers and help centers use for one thing in customer support: "money
 * back" is a refund, "stop my deliveries" cancels, a "bill" is an invoice. Search adds a group's
 * other words to a question that says one of them (at a lower weight: search.repository.ts), and
 * the built-in engine counts a question's word as held by an article that says another word of its
 * group. Groups are kept narrow on purpose: a word that also means something else in support (a
 * refund's "status" is not tracking an order) is left out, since a wrong synonym turns a near miss
 * into a wrong answer. General English, not fitted to one help center.
 */
export const SYNONYM_GROUPS: readonly (readonly string[])[] = [
  ['refund', 'refunded', 'money back', 'reimburse', 'reimbursement', 'repay', 'repayment'],
  ['cancel', 'cancellation', 'stop', 'terminate', 'discontinue', 'call off'],
  ['subscription', 'membership', 'recurring delivery', 'auto renew', 'auto-renewal'],
  ['order', 'purchase', 'buy', 'bought'],
  ['change', 'modify', 'modification', 'edit', 'alter', 'amend', 'adjust'],
  ['invoice', 'bill', 'receipt'],
  ['delivery', 'deliver', 'shipping', 'ship', 'shipment', 'dispatch'],
  ['parcel', 'package', 'packet'],
  ['return', 'send back', 'give back', 'take back'],
  ['contact', 'get in touch', 'reach you', 'speak to', 'talk to', 'call you', 'phone number'],
  ['complaint', 'complain', 'grievance'],
  ['review', 'feedback', 'rate', 'rating'],
  ['delete', 'remove', 'close my account', 'erase'],
  ['password', 'passcode', 'pwd'],
  ['sign in', 'log in', 'login', 'signin', 'logon'],
  ['sign up', 'register', 'registration', 'signup', 'create an account', 'open an account', 'make an account'],
  ['pay', 'payment', 'paid'],
  ['price', 'cost', 'expensive', 'pricey', 'afford', 'too much money'],
  ['track', 'tracking', 'trace'],
  ['address', 'adress', 'addres'],
];

interface Entry {
  stems: string[];
  group: number;
}

const stemsOf = (text: string) => rawWords(text.toLowerCase().replace(/-/g, ' ')).map((w) => stem(w.toLowerCase()));

/** Every entry of every group by its stems, longest first so a phrase wins over its own words. */
const ENTRIES: readonly Entry[] = SYNONYM_GROUPS.flatMap((group, index) => group.map((entry) => ({ stems: stemsOf(entry), group: index }))).sort(
  (a, b) => b.stems.length - a.stems.length,
);

export interface Concepts {
  /** The groups the text mentions. */
  groups: ReadonlySet<number>;
  /** For each stem of the text that belongs to a mention, the groups it stands for. */
  byStem: ReadonlyMap<string, ReadonlySet<number>>;
}

/** The synonym groups a text mentions, found on its stemmed words (phrases as consecutive words). */
export function conceptsOf(text: string): Concepts {
  const stems = stemsOf(text);
  const groups = new Set<number>();
  const byStem = new Map<string, Set<number>>();
  const taken = new Array<boolean>(stems.length).fill(false);
  for (const entry of ENTRIES) {
    const n = entry.stems.length;
    for (let i = 0; i + n <= stems.length; i++) {
      if (taken[i] && n === 1) continue;
      if (!entry.stems.every((s, k) => stems[i + k] === s)) continue;
      groups.add(entry.group);
      for (let k = 0; k < n; k++) {
        taken[i + k] = true;
        const set = byStem.get(stems[i + k]!) ?? new Set<number>();
        set.add(entry.group);
        byStem.set(stems[i + k]!, set);
      }
    }
  }
  return { groups, byStem };
}

/**
 * The words a search adds to a question: for each group the question mentions, the group's
 * one-word entries the question does not say itself (in plain words, for the database's own
 * stemming). Phrases only find a group: their words alone ("give", "back") mean too little.
 */
export function queryExpansion(question: string): string {
  const { groups } = conceptsOf(question);
  const said = new Set(stemsOf(question));
  const extra: string[] = [];
  for (const group of groups) {
    for (const entry of SYNONYM_GROUPS[group]!) {
      const stems = stemsOf(entry);
      if (stems.length !== 1 || said.has(stems[0]!)) continue;
      extra.push(entry);
    }
  }
  return extra.join(' ');
}
