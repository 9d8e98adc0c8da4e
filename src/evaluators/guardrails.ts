import { z } from 'zod';
import { terms } from '../text/terms.js';

/**
 * Guardrails (wave2-decisions §4a, docs/guardrails.md): checks on the customer's message (`input`)
 * or the agent's answer (`output`), each with what to do when it matches. Pure and deterministic;
 * the test route and the answer pipeline call `runGuardrails`.
 */

export const GUARDRAIL_KINDS = ['blocked_topics', 'blocked_phrases', 'pii_redaction', 'answer_length', 'required_citation'] as const;
export type GuardrailKind = (typeof GUARDRAIL_KINDS)[number];
export const GUARDRAIL_STAGES = ['input', 'output'] as const;
export type GuardrailStage = (typeof GUARDRAIL_STAGES)[number];
export const GUARDRAIL_ACTIONS = ['block', 'redact', 'escalate', 'flag'] as const;
export type GuardrailAction = (typeof GUARDRAIL_ACTIONS)[number];
export const PII_TYPES = ['email', 'phone', 'card', 'iban', 'ssn'] as const;
export type PiiType = (typeof PII_TYPES)[number];

/** What each kind may do, and on which stages it runs. */
export const KIND_RULES: Readonly<Record<GuardrailKind, { actions: readonly GuardrailAction[]; stages: readonly GuardrailStage[] }>> = {
  blocked_topics: { actions: ['block', 'escalate', 'flag'], stages: ['input', 'output'] },
  blocked_phrases: { actions: ['block', 'redact', 'escalate', 'flag'], stages: ['input', 'output'] },
  pii_redaction: { actions: ['redact', 'block', 'escalate', 'flag'], stages: ['input', 'output'] },
  answer_length: { actions: ['block', 'escalate', 'flag'], stages: ['output'] },
  required_citation: { actions: ['block', 'escalate', 'flag'], stages: ['output'] },
};

const text = z.string().trim().min(1).max(200);
export const guardrailConfigSchemas = {
  blocked_topics: z.strictObject({
    topics: z.array(text).min(1).max(50).describe('each topic: words or comma-separated alternatives ("politics, elections, voting")'),
  }),
  blocked_phrases: z.strictObject({ phrases: z.array(text).min(1).max(200), caseSensitive: z.boolean().default(false) }),
  pii_redaction: z.strictObject({ types: z.array(z.enum(PII_TYPES)).min(1).max(PII_TYPES.length) }),
  answer_length: z.strictObject({ maxCharacters: z.number().int().min(1).max(100_000) }),
  required_citation: z.strictObject({}),
} as const;

/** Any kind's config, `GuardrailConfig` in the OpenAPI document: a guardrail answers its config as one of these. */
export const guardrailConfigSchema = z
  .union([
    guardrailConfigSchemas.blocked_topics,
    guardrailConfigSchemas.blocked_phrases,
    guardrailConfigSchemas.pii_redaction,
    guardrailConfigSchemas.answer_length,
    guardrailConfigSchemas.required_citation,
  ])
  .meta({
    id: 'GuardrailConfig',
    description:
      'The config of the guardrail\'s kind: blocked_topics `{ topics }`, blocked_phrases `{ phrases, caseSensitive }`, ' +
      'pii_redaction `{ types }`, answer_length `{ maxCharacters }`, required_citation `{}`.',
  });

const base = {
  name: z.string().trim().min(1).max(200),
  stage: z.enum(GUARDRAIL_STAGES),
  action: z.enum(GUARDRAIL_ACTIONS),
};

/** A guardrail's definition: kind with its config, stage and action, checked together. */
export const guardrailDefinitionSchema = z
  .discriminatedUnion('kind', [
    z.object({ ...base, kind: z.literal('blocked_topics'), config: guardrailConfigSchemas.blocked_topics }),
    z.object({ ...base, kind: z.literal('blocked_phrases'), config: guardrailConfigSchemas.blocked_phrases }),
    z.object({ ...base, kind: z.literal('pii_redaction'), config: guardrailConfigSchemas.pii_redaction }),
    z.object({ ...base, kind: z.literal('answer_length'), config: guardrailConfigSchemas.answer_length }),
    z.object({ ...base, kind: z.literal('required_citation'), config: guardrailConfigSchemas.required_citation.default({}) }),
  ])
  .superRefine((g, ctx) => {
    const rules = KIND_RULES[g.kind];
    if (!rules.stages.includes(g.stage)) {
      ctx.addIssue({ code: 'custom', path: ['stage'], message: `${g.kind} checks the agent's answer: stage must be ${rules.stages.join(' or ')}` });
    }
    if (!rules.actions.includes(g.action)) {
      ctx.addIssue({ code: 'custom', path: ['action'], message: `${g.kind} cannot ${g.action}: use one of ${rules.actions.join(', ')}` });
    }
  });
export type GuardrailDefinition = z.infer<typeof guardrailDefinitionSchema>;

export interface Guardrail {
  id: string;
  name: string;
  kind: GuardrailKind;
  stage: GuardrailStage;
  action: GuardrailAction;
  config: Record<string, unknown>;
  isEnabled: boolean;
}

export interface GuardrailMatch {
  /** What matched: a PII type, a phrase, a topic, or the length/citation rule. */
  type: string;
  /** The matched text for phrases and topics; never the value for PII (only its position). */
  value?: string;
  start?: number;
  end?: number;
}

export interface GuardrailResult {
  id: string;
  name: string;
  kind: GuardrailKind;
  action: GuardrailAction;
  matched: boolean;
  matches: GuardrailMatch[];
  detail: string;
}

export interface GuardrailsOutcome {
  /** The text after every `redact` that matched. */
  text: string;
  /** A `block` matched: no answer (the agent hands over with reason `guardrail_block`). */
  blocked: boolean;
  /** An `escalate` matched: answer, then hand over. */
  escalate: boolean;
  results: GuardrailResult[];
}

export const REDACTED = '[redacted]';

// ---------------------------------------------------------------------------------------------
// Detectors

interface Span {
  type: string;
  start: number;
  end: number;
  value: string;
}

const luhn = (digits: string): boolean => {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
};

/** IBAN check digits (ISO 13616 mod 97). */
const ibanValid = (raw: string): boolean => {
  const iban = raw.replace(/\s+/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const moved = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const ch of moved) {
    const value = /[A-Z]/.test(ch) ? String(ch.charCodeAt(0) - 55) : ch;
    for (const digit of value) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
};

const DETECTORS: Record<PiiType, { pattern: RegExp; valid?: (match: string) => boolean }> = {
  // 13-19 digits, plain or in groups of 4 (4-6-5 for American Express) with one kind of separator.
  card: { pattern: /(?<![\d-])(?:\d{13,19}|\d{4}([ -])\d{4}\1\d{4}\1\d{1,7}|\d{4}([ -])\d{6}\2\d{4,5})(?![\d-])/g, valid: (m) => luhn(m.replace(/\D/g, '')) },
  // Written in capitals, as IBANs are, so that a following word never joins the match.
  iban: { pattern: /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}\b/g, valid: ibanValid },
  ssn: { pattern: /\b(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}\b/g },
  email: { pattern: /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g },
  phone: {
    // +country or (area) or groups of digits with separators: 8 to 15 digits; a bare run of digits
    // (an order number) is not a phone number, nor is an ISO date.
    pattern: /(?<![\w+])(?:\+\d{1,3}[ .-]?)?(?:\(\d{1,4}\)[ .-]?)?\d{2,4}(?:[ .-]\d{2,4}){1,4}(?![\w-])|(?<![\w+])\+\d{8,15}(?!\w)/g,
    valid: (m) => {
      const digits = m.replace(/\D/g, '');
      return digits.length >= 8 && digits.length <= 15 && !/^\d{4}-\d{2}-\d{2}$/.test(m) && !/^\d{3}-\d{2}-\d{4}$/.test(m);
    },
  },
};
const DETECTION_ORDER: readonly PiiType[] = ['card', 'iban', 'ssn', 'email', 'phone'];

/** PII spans of the given types, without overlaps (earlier detectors win). */
export function detectPii(text: string, types: readonly PiiType[]): Span[] {
  const spans: Span[] = [];
  const overlaps = (start: number, end: number) => spans.some((s) => start < s.end && end > s.start);
  for (const type of DETECTION_ORDER) {
    if (!types.includes(type)) continue;
    const { pattern, valid } = DETECTORS[type];
    for (const match of text.matchAll(pattern)) {
      const start = match.index;
      const end = start + match[0].length;
      if (overlaps(start, end) || (valid && !valid(match[0]))) continue;
      spans.push({ type, start, end, value: match[0] });
    }
  }
  return spans.sort((a, b) => a.start - b.start);
}

const phraseCache = new Map<string, RegExp>();
const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function phrasePattern(phrase: string, caseSensitive: boolean): RegExp {
  const key = `${caseSensitive ? 's' : 'i'}:${phrase}`;
  let re = phraseCache.get(key);
  if (!re) {
    if (phraseCache.size > 5_000) phraseCache.clear();
    re = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegex(phrase)}(?![\\p{L}\\p{N}])`, caseSensitive ? 'gu' : 'giu');
    phraseCache.set(key, re);
  }
  return re;
}

function findPhrases(text: string, phrases: readonly string[], caseSensitive: boolean): Span[] {
  const spans: Span[] = [];
  for (const phrase of phrases) {
    for (const match of text.matchAll(phrasePattern(phrase, caseSensitive))) {
      spans.push({ type: 'phrase', start: match.index, end: match.index + match[0].length, value: match[0] });
    }
  }
  return spans.sort((a, b) => a.start - b.start || b.end - a.end).filter((s, i, all) => i === 0 || s.start >= all[i - 1]!.end);
}

/**
 * A topic matches when every content word of one of its comma-separated alternatives appears in the
 * text (compared by stem: "voting" matches "vote"). "politics, elections, voting" matches "who
 * should I vote for"; "credit card fraud" needs all three words.
 */
export function findTopics(text: string, topics: readonly string[]): { topic: string; terms: string[] }[] {
  const present = new Set(terms(text));
  const found: { topic: string; terms: string[] }[] = [];
  for (const topic of topics) {
    for (const alternative of topic.split(',')) {
      const wanted = [...new Set(terms(alternative))];
      if (wanted.length && wanted.every((t) => present.has(t))) {
        found.push({ topic: alternative.trim(), terms: wanted });
        break;
      }
    }
  }
  return found;
}

function redact(text: string, spans: readonly Span[]): string {
  let out = '';
  let at = 0;
  for (const span of [...spans].sort((a, b) => a.start - b.start)) {
    if (span.start < at) continue;
    out += text.slice(at, span.start) + REDACTED;
    at = span.end;
  }
  return out + text.slice(at);
}

// ---------------------------------------------------------------------------------------------
// Running

function check(g: Guardrail, text: string, citations: readonly string[] | undefined): { spans: Span[]; matches: GuardrailMatch[]; detail: string } {
  switch (g.kind) {
    case 'blocked_topics': {
      const found = findTopics(text, (g.config.topics as string[]) ?? []);
      return {
        spans: [],
        matches: found.map((f) => ({ type: 'topic', value: f.topic })),
        detail: found.length ? `about ${found.map((f) => `"${f.topic}" (${f.terms.join(', ')})`).join('; ')}` : 'about none of the topics',
      };
    }
    case 'blocked_phrases': {
      const spans = findPhrases(text, (g.config.phrases as string[]) ?? [], g.config.caseSensitive === true);
      return {
        spans,
        matches: spans.map((s) => ({ type: 'phrase', value: s.value, start: s.start, end: s.end })),
        detail: spans.length ? `contains ${spans.length} blocked phrase(s)` : 'contains none of the phrases',
      };
    }
    case 'pii_redaction': {
      const spans = detectPii(text, (g.config.types as PiiType[]) ?? []);
      const counts = PII_TYPES.map((t) => [t, spans.filter((s) => s.type === t).length] as const).filter(([, n]) => n > 0);
      return {
        spans,
        matches: spans.map((s) => ({ type: s.type, start: s.start, end: s.end })),
        detail: spans.length ? `found ${counts.map(([t, n]) => `${n} ${t}`).join(', ')}` : 'found no personal data',
      };
    }
    case 'answer_length': {
      const max = Number(g.config.maxCharacters);
      const over = text.length > max;
      return { spans: [], matches: over ? [{ type: 'length', value: String(text.length) }] : [], detail: `${text.length} of at most ${max} characters` };
    }
    case 'required_citation': {
      const cited = (citations ?? []).length > 0;
      return { spans: [], matches: cited ? [] : [{ type: 'citation' }], detail: cited ? `cites ${citations!.length} article(s)` : 'cites no article' };
    }
  }
}

/**
 * Runs the enabled guardrails of a stage, in the given order, on a text: redactions apply in turn
 * (each later guardrail sees the redacted text), blocks and escalations are reported.
 */
export function runGuardrails(
  guardrails: readonly Guardrail[],
  input: { stage: GuardrailStage; text: string; citations?: readonly string[] },
): GuardrailsOutcome {
  let text = input.text;
  let blocked = false;
  let escalate = false;
  const results: GuardrailResult[] = [];
  for (const g of guardrails) {
    if (!g.isEnabled || g.stage !== input.stage) continue;
    const { spans, matches, detail } = check(g, text, input.citations);
    const matched = matches.length > 0;
    if (matched) {
      if (g.action === 'block') blocked = true;
      else if (g.action === 'escalate') escalate = true;
      else if (g.action === 'redact' && spans.length) text = redact(text, spans);
    }
    results.push({ id: g.id, name: g.name, kind: g.kind, action: g.action, matched, matches, detail });
  }
  return { text, blocked, escalate, results };
}

