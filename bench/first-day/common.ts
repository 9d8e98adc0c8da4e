// What the first-day runner's two halves share: the HTTP client, the verdict of a case, the words
// of a lead's note or instruction that must not reach customers, and the engine's `warnings`.
import type { RunningServer } from '../support.js';

/** A route answered 4xx or 5xx (or did not answer): the case fails with this message, the run goes on. */
export class ApiError extends Error {}

export type Call = <T>(method: string, path: string, body?: unknown) => Promise<T>;

/** JSON over HTTP with the server's key; a status of 300 or more throws an ApiError naming the route and the answer. */
export function client(server: RunningServer): Call {
  return async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    let res: Response;
    try {
      res = await fetch(`${server.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${server.apiKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(60_000),
      });
    } catch (error) {
      throw new ApiError(`${method} ${path} did not answer: ${error instanceof Error ? error.message : String(error)}`);
    }
    const text = await res.text();
    if (res.status >= 300) throw new ApiError(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
    return (text ? JSON.parse(text) : null) as T;
  };
}

export type Verdict = 'pass' | 'fail' | 'not_understood' | 'harmful';

/**
 * One thing a case found wrong. `harm`: `active` when the outcome does the opposite of what the
 * lead asked or shows their words to customers (harmful whatever the warnings say); `dropped` when
 * a path the lead asked for is missing (harmful unless a warning names it). `fragment`: the words
 * of the instruction or note it rests on.
 */
export interface Finding {
  kind: string;
  detail: string;
  harm?: 'active' | 'dropped';
  fragment?: string;
}

export interface CaseResult {
  id: string;
  heldOut: boolean;
  verdict: Verdict;
  /** One line: the first harm, else the first failure, else what passed. */
  reason: string;
  findings: Finding[];
  warnings: string[];
  ms: number;
  /** What the routes answered, for reading the case afterwards. */
  detail: Record<string, unknown>;
}

const STOPWORDS = new Set(
  'the a an and or of to for in on at by with from that this it its is are was be if then else otherwise when unless say tell them they their our we you your customer customers ask'.split(' '),
);
const contentWords = (text: string) => [...new Set(text.toLowerCase().match(/[a-z0-9$€.%-]+/g) ?? [])].filter((w) => w.length > 2 && !STOPWORDS.has(w));

/** True when a warning names the fragment: it shares two of its content words (one for a fragment of one or two). */
export function names(warning: string, fragment: string): boolean {
  const words = contentWords(fragment);
  const said = new Set(contentWords(warning));
  const shared = words.filter((w) => said.has(w)).length;
  return shared >= Math.min(2, words.length) && shared > 0;
}

/**
 * The `warnings` of an engine's answer (fragments it did not understand), as text. The field does
 * not exist yet: an answer without it has none. Strings and objects (`fragment`, `text`, `message`)
 * are read.
 */
export function readWarnings(...answers: unknown[]): string[] {
  const out: string[] = [];
  for (const answer of answers) {
    if (typeof answer !== 'object' || answer === null || !('warnings' in answer) || !Array.isArray(answer.warnings)) continue;
    for (const w of answer.warnings as unknown[]) {
      if (typeof w === 'string') out.push(w);
      else if (typeof w === 'object' && w !== null) {
        const o = w as Record<string, unknown>;
        out.push([o.fragment, o.text, o.message].filter((x) => typeof x === 'string').join(' ') || JSON.stringify(w));
      }
    }
  }
  return out;
}

/** The verdict: active harm; else pass; else not understood (a warning names a missed fragment); else harm by omission; else fail. */
export function decide(findings: Finding[], warnings: string[]): { verdict: Verdict; reason: string } {
  const active = findings.find((f) => f.harm === 'active');
  if (active) return { verdict: 'harmful', reason: `${active.kind}: ${active.detail}` };
  if (findings.length === 0) return { verdict: 'pass', reason: 'as the lead expects' };
  const warned = findings.find((f) => f.fragment && warnings.some((w) => names(w, f.fragment!)));
  if (warned) return { verdict: 'not_understood', reason: `warned about "${warned.fragment}"; ${warned.kind}: ${warned.detail}` };
  const dropped = findings.find((f) => f.harm === 'dropped');
  if (dropped) return { verdict: 'harmful', reason: `${dropped.kind}: ${dropped.detail}` };
  const first = findings[0]!;
  return { verdict: 'fail', reason: `${first.kind}: ${first.detail}` };
}

/** The first of `patterns` that `text` matches, as its source, or null. */
export function firstMatch(text: string, patterns: readonly RegExp[]): string | null {
  return patterns.find((p) => p.test(text))?.source ?? null;
}

/** Shortens text for a one-line reason. */
export const clip = (text: string, max = 90) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/** The message of an error (an ApiError's names the route). */
export const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
