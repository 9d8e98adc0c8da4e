import { factValues } from './facts.js';
import { splitSentences, squash, stripMarkdown } from '../../text/sentences.js';
import { oneEditApart, repairWord, swapOrGap } from '../../text/spelling.js';
import { COMMON_WORDS, STOPWORDS, terms } from '../../text/terms.js';

/**
 * The note reader of Refine with AI's built-in diagnosis (docs/refine.md): what a support lead's
 * note under a bad reply states, as help-center text. A note is written to a colleague, not to
 * customers: "This is wrong: ...", "Heads up, we changed this in March: ...", "Correct, but it
 * should mention ...", "tell customers that ...", "pls add that ...", "wrong - 3 to 5 days". The
 * reader takes off what is addressed to the agent (lead-ins, praise, instructions, asides about
 * when a fact changed), keeps the old value a note names ("not 14 days", "the 2 year limit was
 * dropped"), repairs typos against the words of the question and the knowledge, and says which
 * parts it could not read as a fact instead of passing them on.
 */

export interface NoteWarning {
  fragment: string;
  message: string;
}

export interface NoteReading {
  /** The note's facts as help-center sentences. */
  facts: string[];
  /** Values the note says are no longer true ("not 14 days", "the 2 year limit was dropped"). */
  oldValues: string[];
  /** The note states values but not what they are about ("wrong - 3 to 5 days"). */
  terse: boolean;
  warnings: NoteWarning[];
}

/** A step the agent should have taken. */
export const STEP =
  /\b(?:ask(?:ed|ing)?|collect(?:ed|ing)?|request(?:ed|ing)?|verify|verified|confirm(?:ed)?)\s+(?:the customer\s+)?(?:for\s+)?((?:the|their|his|her|an?|your)\s+)?([a-z][a-z0-9' -]{1,40}?)(?=\s+(?:first|before|beforehand|at the start)\b|\s*[.,;!?]|\s+(?:and|then)\b|$)/i;
export const STEP_CONTEXT = /\b(?:should|must|needs? to|need to|has to|have to|forgot|didn't|did not|never|first|before|always)\b/i;
const FIRST = /\b(?:first|before anything|at the start|beforehand)\b/i;

/** Words of instructions to the agent, which leads mistype ("shuold say", "tel customers"). */
const INSTRUCTION_WORDS = ['should', 'say', 'said', 'mention', 'tell', 'customers', 'customer', 'answer', 'also', 'please', 'that', 'the', 'wrong', 'outdated'];
const SHORTHAND: Record<string, string> = {
  pls: 'please', plz: 'please', pleas: 'please', dont: "don't", doesnt: "doesn't", cant: "can't", wont: "won't", isnt: "isn't", arent: "aren't", didnt: "didn't", u: 'you', thx: 'thanks',
};

/** A head that judges the answer or announces a change, not a fact ("This is wrong", "Nice and short, but the number is outdated"). */
const META =
  /\b(?:wrong|incorrect|not (?:quite )?right|outdated|out of date|changed?|update[ds]?|heads up|fyi|note|correction|actually|good|great|nice|fine|correct|right|ok(?:ay)?|accurate|helpful|sweet|short|close|almost|yes|yeah|yep|nope|no|answer|reply|response|job|thanks?|thank you|we do have (?:one|it|that)|this is|that's|it's)\b/i;
const INTERJECTION =
  /^(?:yes|yeah|yep|no|nope|actually|in fact|correction|also|plus|and|oh|ok(?:ay)?|hmm+|so|fyi|note|btw|(?:(?:that|this|it)(?:'s|\s+is|\s+was)\s+)?(?:wrong|incorrect|not (?:quite )?right|not quite|outdated))\b[,!.:]?\s*/i;
const WRAPPERS = [
  /^(?:please\s+)?(?:also\s+)?(?:tell|let|remind|inform)\s+(?:the\s+)?(?:customers?|them|people|users|him|her|shoppers|clients)(?:\s+know)?(?:\s+that)?[:,]?\s+/i,
  /^(?:(?:the\s+)?(?:answer|reply|response|agent|bot)|it|you)?\s*(?:should|must|needs?\s+to|ought\s+to|has\s+to|could)\s+(?:also\s+)?(?:have\s+)?(?:said|say|mention(?:ed)?|told|tell|state[d]?|explain(?:ed)?|add(?:ed)?|note[d]?)(?:\s+(?:the customers?|customers|them))?(?:\s+that)?[:,]?\s*/i,
  /^(?:please\s+)?(?:also\s+)?(?:add|mention|say|state|note|explain)(?:\s+that)?[:,]?\s+/i,
  /^the\s+(?:correct|right|real)\s+answer\s+is[:,]?\s*/i,
  /^(?:(?:the\s+)?(?:answer|reply|response|agent|bot)|it|you)\s+(?:forgot|failed|neglected|didn't|did not|doesn't|does not)\s+(?:to\s+)?(?:say|mention|tell|state|explain)(?:\s+(?:the customers?|customers|them))?(?:\s+that)?[:,]?\s*/i,
  /^(?:(?:it|this|that)\s+)?(?:should be|'s|’s|is|was|its|it's|it is)\s+(?=(?:only\s+|about\s+|up to\s+)?[$€£]?\d)/i,
  /^(?:since|as of)\s+(?:the\s+|last\s+|this\s+|early\s+|late\s+)?[\w-]+,?\s+(?=\S)/i,
  /^(?:this|that|it)(?:'s|\s+is|\s+was)\s+(?:wrong|incorrect|outdated|not right)[:,.!-]?\s*/i,
];
/** A clause about the old value, not the new fact ("the 2 year limit was dropped in January", "it's no longer 48 hours"). */
const OLD_CLAUSE =
  /\b(?:(?:was|were|has been|have been|got|is|are)\s+(?:dropped|removed|changed|scrapped|abolished|cancel+ed|updated|raised|lowered|extended|increased|decreased|shortened|outdated|gone|old)|used to be|no longer (?:applies|true|valid))\b|^(?:(?:it|that|this)(?:'s|\s+is|\s+was)\s+|which is\s+)?no longer\s+(?:\w+\s+)?[$€£]?\d/i;
/**
 * A clause or sentence that speaks to the agent, not to customers: "the bot should know this",
 * "the assistant needs to mention it", "The agent must know that."
 */
const TO_THE_AGENT =
  /^(?:so\s+|and\s+)?(?:the\s+)?(?:bot|agent|assistant|ai|answer|reply|you|it)\s+(?:should|must|needs?\s+to|ought\s+to|has\s+to|have\s+to)\s+(?:also\s+)?(?:know|say|mention|tell|include|remember|be aware of)\b(?:\s+(?:it|this|that|them|about it|about this|customers|people))?[\s.!]*$/i;
/**
 * A sentence about how the knowledge was kept, to the team: "nobody updated the page after the
 * spring change", "we forgot to change the FAQ", "this one's on us", "my bad". Never customers' text.
 */
const UPKEEP =
  /\b(?:nobody|no one|noone|someone|somebody|we|i|they|you)\s+(?:\w+\s+){0,2}(?:updated|update|forgot|fixed|fix|changed|edited|touched|missed)\b(?:\s+\w+){0,3}\s+(?:page|article|faq|help\s*cent(?:er|re)|docs?|documentation|site|website|knowledge(?:\s*base)?|kb|text|copy|entry)\b|\b(?:(?:this|that)(?:\s+one)?(?:'s|’s|\s+is|\s+was)\s+on\s+(?:us|me)|my bad|our bad|our mistake|my mistake)\b/i;
/** Words for the agent left in a fact: it is not written for customers. */
const STILL_TO_THE_AGENT = /\b(?:the\s+)?(?:bot|agent|assistant)\b.*\b(?:should|must|needs?\s+to|ought\s+to)\b|\btell\s+(?:the\s+)?(?:customers?|them|people)\b|\b(?:article|answer|reply)\s+(?:is|was)\s+(?:outdated|wrong|incorrect)\b/i;
/** Asides on when something changed: "since last year", "since the relaunch", trailing "anymore", "too". */
const ASIDES = [/\s+since\s+(?:the\s+|last\s+|this\s+|early\s+|late\s+)?[\w-]+(?:\s+(?:year|month|week))?(?=\s*[,.;!]|\s*$)/gi, /\s+(?:anymore|any more|too|now)(?=\s*[,.;!]|\s*$)/gi];
/** A sentence that only judges the answer or the article ("The answer is outdated."). */
const JUDGEMENT = /^(?:the\s+)?(?:answer|reply|response|article|info(?:rmation)?|number|price|date|figure)s?\s+(?:is|are|was|were)\s+(?:\w+\s+)?(?:wrong|outdated|incorrect|old|out of date|not right)\b[\s.!]*$/i;
const NOT_OLD = /,?\s+(?:not|instead of|rather than)\s+([^,.;]+?)\s*[.!]?$/i;
/** Sentences that tell the agent how to behave ("Be friendlier.", "Don't apologise so much.") state no fact. */
const BEHAVIOUR =
  /^(?:please\s+)?(?:be|do|don't|do not|never|always|use|keep|make|avoid|try|stop|remove|write|answer|reply|sound|give|ask|apologi[sz]e)\b/i;

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The note with its instruction words and shorthand spelled out, and typos of the question's and knowledge's words repaired. */
export function repairNote(note: string, vocabulary = ''): string {
  const known = new Set((vocabulary.toLowerCase().match(/[a-z]+/g) ?? []).filter((w) => w.length >= 3));
  return note.replace(/[A-Za-z]+/g, (word) => {
    const lower = word.toLowerCase();
    const keepCase = (fixed: string) => (/^[A-Z]/.test(word) ? capital(fixed) : fixed);
    if (SHORTHAND[lower]) return keepCase(SHORTHAND[lower]);
    if (STOPWORDS.has(lower) || COMMON_WORDS.has(lower) || known.has(lower) || INSTRUCTION_WORDS.includes(lower)) return word;
    const instruction = INSTRUCTION_WORDS.filter((w) => (lower.length >= 5 ? oneEditApart(lower, w) : lower.length >= 3 && swapOrGap(lower, w)));
    if (instruction.length === 1) return keepCase(instruction[0]!);
    const repaired = repairWord(lower, known);
    return repaired ? keepCase(repaired) : word;
  });
}

/** The step the feedback says the agent should have taken, when it names one. */
export function findStep(feedback: string): { phrase: string; first: boolean } | null {
  for (const sentence of splitSentences(feedback)) {
    if (!STEP_CONTEXT.test(sentence)) continue;
    const match = STEP.exec(sentence);
    if (!match) continue;
    const phrase = `${match[1] ?? 'the '}${match[2]!.trim()}`.replace(/\s+/g, ' ').trim();
    if (terms(phrase).length === 0) continue;
    return { phrase, first: FIRST.test(sentence) };
  }
  return null;
}

/** What a lead's note states (see the file's head). `vocabulary`: the question's and knowledge's words, for typos. */
export function readNote(note: string, vocabulary = ''): NoteReading {
  const out: NoteReading = { facts: [], oldValues: [], terse: false, warnings: [] };
  const text = repairNote(squash(stripMarkdown(note)), vocabulary);
  for (const raw of splitSentences(text)) {
    const original = raw.trim();
    if (JUDGEMENT.test(original) || TO_THE_AGENT.test(original)) continue;
    if (UPKEEP.test(original) && factValues(original).length === 0) {
      out.warnings.push({ fragment: original, message: 'Left out: this part speaks to the team about how the knowledge was kept, not to customers.' });
      continue;
    }
    const read = factOf(original, out.oldValues);
    if (read === null) continue;
    const fact = read.text;
    if (STILL_TO_THE_AGENT.test(fact)) {
      out.warnings.push({ fragment: original, message: 'Not understood: this part speaks to the agent, and no fact for customers could be read from it.' });
      continue;
    }
    // A step the agent should have taken is read by findStep, not as a fact.
    if (STEP_CONTEXT.test(fact) && STEP.test(fact)) continue;
    if (/\?$/.test(fact) || (!read.instructed && BEHAVIOUR.test(fact))) {
      out.warnings.push({ fragment: original, message: 'This reads as an instruction on how to answer, not as a fact; the built-in engine drafts no change from it.' });
      continue;
    }
    // A judgement alone ("Wrong.", "Not quite right!") states nothing to add.
    if (terms(fact.replace(new RegExp(META.source, 'gi'), ' ')).length === 0 && factValues(fact).length === 0) continue;
    const values = factValues(fact);
    const subject = terms(fact.replace(/\d+/g, ' '));
    if (values.length > 0 && subject.length < 2) {
      out.terse = true;
      out.facts.push(finish(fact));
    } else if (subject.length >= 2) out.facts.push(finish(fact));
    else if (subject.length === 1) out.warnings.push({ fragment: original, message: 'Not understood: this part states no fact the engine can add to an answer or an article.' });
  }
  if (out.facts.length === 0 && out.warnings.length === 0 && !findStep(text)) {
    out.warnings.push({ fragment: squash(note), message: 'Not understood: the note states no fact and no step the agent should have taken, so nothing was changed.' });
  }
  return out;
}

/** One sentence of a note as a fact, its lead-ins, instructions and asides taken off (null when nothing is left); old values it names go to `oldValues`. */
function factOf(sentence: string, oldValues: string[]): { text: string; instructed: boolean } | null {
  let s = sentence;
  let instructed = false;
  for (let i = 0; i < 4; i++) {
    const before = s;
    // A lead-in before ':' or ' - ' that judges the answer or announces a change.
    const lead = /^(.{1,90}?)\s*(?::|\s[-–—]\s|!)\s*(\S.*)$/.exec(s);
    if (lead && factValues(lead[1]!).length === 0 && (META.test(lead[1]!) || terms(lead[1]!).length === 0)) s = lead[2]!;
    // Praise, then the missing fact: "Good answer, but ...".
    const praise = /^(.{1,60}?),?\s+but\s+(\S.*)$/i.exec(s);
    if (praise && factValues(praise[1]!).length === 0 && META.test(praise[1]!)) s = praise[2]!;
    s = s.replace(INTERJECTION, '');
    for (const wrapper of WRAPPERS) {
      const unwrapped = s.replace(wrapper, '');
      instructed ||= unwrapped !== s;
      s = unwrapped;
    }
    s = s.trim();
    if (s === before) break;
  }
  // "... , not 14 days": the old value.
  const not = NOT_OLD.exec(s);
  if (not && (factValues(not[1]!).length > 0 || /\d/.test(not[1]!))) {
    oldValues.push(...(factValues(not[1]!).length ? factValues(not[1]!) : [not[1]!.trim().toLowerCase()]));
    s = s.slice(0, not.index);
  }
  // Clauses about the old value, words to the agent and judgements of the answer are no part of the fact.
  const pieces = s.split(/(,\s+|\s+[-–—]\s+)/);
  s = '';
  for (let i = 0; i < pieces.length; i += 2) {
    const clause = pieces[i]!;
    if (i > 0 && OLD_CLAUSE.test(clause)) {
      oldValues.push(...factValues(clause));
      continue;
    }
    if (i > 0 && (TO_THE_AGENT.test(clause) || (META.test(clause) && terms(clause).length <= 2 && factValues(clause).length === 0))) continue;
    s += (s ? pieces[i - 1] : '') + clause;
  }
  for (const aside of ASIDES) s = s.replace(aside, '');
  s = s
    .replace(/\bdon't\b/gi, 'do not')
    .replace(/\bdoesn't\b/gi, 'does not')
    .replace(/\bcan't\b/gi, 'cannot')
    .replace(/\bwon't\b/gi, 'will not')
    .replace(/^(not\s+)?to\s+(?=\w)/i, (_m, neg: string | undefined) => (neg ? 'Do not ' : ''))
    .replace(/^["“'\s]+|["”'\s]+$/g, '')
    .replace(/[\s,;:!-]+$/, '')
    .trim();
  return s.length >= 2 ? { text: s, instructed } : null;
}

function finish(fact: string): string {
  const text = capital(fact.trim());
  return /[.!]$/.test(text) ? text.replace(/!$/, '.') : `${text}.`;
}
