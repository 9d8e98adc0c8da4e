import type { TestExpectation } from '../../db/schema/index.js';

/**
 * Whether one agent reply meets what a test case expects of it (docs/testing.md). Pure: the run
 * service gathers the facts of the reply, this says which expectations failed and what the reply
 * did instead, in words a lead reads in the run's results.
 */

export interface ReplyFacts {
  /** `none` when the agent stayed silent (a reply rule, or the humans hold the conversation). */
  type: 'message' | 'internal_comment' | 'none';
  message: string | null;
  handover: boolean;
  escalationReason: string | null;
  citedArticleIds: readonly string[];
  /** The folders of the cited articles and every folder above them. */
  citedFolderIds: readonly string[];
  /** Rules whose flows ran for the message. */
  ruleIds: readonly string[];
  /** The reply's tags, by id and by name (lower case). */
  tagIds: readonly string[];
  tagNames: readonly string[];
  latencyMs: number;
}

export interface UnmetExpectation {
  expectation: string;
  actual: string;
}

/** Lower case, hyphens and runs of spacing as one space, curly quotes straight: "45-Day" reads as "45 day". */
export function normalizePhrase(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/[-\u2010-\u2015]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Whether `text` says `phrase`: "45 days" is said by "45-day" and "45 Days" (a plural s may be missing). */
export function says(text: string, phrase: string): boolean {
  const haystack = normalizePhrase(text);
  const needle = normalizePhrase(phrase);
  if (!needle) return true;
  if (haystack.includes(needle)) return true;
  // "45 days" in a text saying "a 45-day window": the last word's plural s is optional.
  return needle.endsWith('s') && needle.length > 2 && haystack.includes(needle.slice(0, -1));
}

const quoted = (values: readonly string[]) => values.map((v) => `"${v}"`).join(', ');
const snippet = (text: string | null) => {
  if (text === null) return 'no reply';
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 120 ? `"${flat.slice(0, 117)}..."` : `"${flat}"`;
};

function what(reply: ReplyFacts): string {
  if (reply.type === 'none') return 'no reply';
  if (reply.handover) return `a hand-over (${reply.escalationReason ?? 'no reason'})`;
  if (reply.citedArticleIds.length === 0) return 'an answer citing no article';
  return `an answer citing ${reply.citedArticleIds.length} article${reply.citedArticleIds.length === 1 ? '' : 's'}`;
}

/** The expectations the reply does not meet, in the order a case states them; empty when it meets all. */
export function unmetExpectations(expect: TestExpectation, reply: ReplyFacts): UnmetExpectation[] {
  const unmet: UnmetExpectation[] = [];
  const fail = (expectation: string, actual: string) => unmet.push({ expectation, actual });
  if (expect.answers === true && (reply.type === 'none' || reply.handover || reply.citedArticleIds.length === 0)) {
    fail('answers: true (an answer citing an article)', what(reply));
  }
  if (expect.answers === false && !(reply.type !== 'none' && reply.handover)) fail('answers: false (a hand-over)', what(reply));
  if (expect.handoverReason !== undefined && !(reply.handover && reply.escalationReason === expect.handoverReason)) {
    fail(`handoverReason: ${expect.handoverReason}`, what(reply));
  }
  if (expect.citesArticleIds && !expect.citesArticleIds.some((id) => reply.citedArticleIds.includes(id))) {
    fail(`citesArticleIds: any of ${expect.citesArticleIds.join(', ')}`, reply.citedArticleIds.length ? `cited ${reply.citedArticleIds.join(', ')}` : 'cited no article');
  }
  if (expect.citesFolderIds && !expect.citesFolderIds.some((id) => reply.citedFolderIds.includes(id))) {
    fail(`citesFolderIds: any of ${expect.citesFolderIds.join(', ')}`, reply.citedArticleIds.length ? `cited articles of other folders (${reply.citedArticleIds.join(', ')})` : 'cited no article');
  }
  if (expect.ruleId !== undefined && !reply.ruleIds.includes(expect.ruleId)) {
    fail(`ruleId: ${expect.ruleId}`, reply.ruleIds.length ? `rule ${reply.ruleIds.join(', ')} ran` : 'no rule ran');
  }
  const text = reply.message ?? '';
  const missing = (expect.contains ?? []).filter((p) => !says(text, p));
  if (missing.length) fail(`contains ${quoted(missing)}`, `said ${snippet(reply.message)}`);
  const present = (expect.notContains ?? []).filter((p) => says(text, p));
  if (present.length) fail(`notContains ${quoted(present)}`, `said ${snippet(reply.message)}`);
  if (expect.tags) {
    const absent = expect.tags.filter((t) => !reply.tagIds.includes(t) && !reply.tagNames.includes(t.toLowerCase()));
    if (absent.length) fail(`tags ${quoted(absent)}`, reply.tagNames.length ? `tagged ${quoted(reply.tagNames)}` : 'no tags');
  }
  if (expect.replyType !== undefined && reply.type !== expect.replyType) fail(`replyType: ${expect.replyType}`, `replyType ${reply.type}`);
  if (expect.maxLatencyMs !== undefined && reply.latencyMs > expect.maxLatencyMs) fail(`maxLatencyMs: ${expect.maxLatencyMs}`, `replied in ${reply.latencyMs} ms`);
  return unmet;
}
