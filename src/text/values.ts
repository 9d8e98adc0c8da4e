/**
 * Values read out of a customer's words (docs/rules.md, `collect` data types): a number or an
 * amount of money ("$1,299.00", "149,90 euros"), an identifier ("It is order #48213" -> 48213), and
 * a number of days between a date the customer gives ("45 days ago", "3 weeks ago", "March 3rd",
 * "2026-03-03", "yesterday") and today. Pure and deterministic: today is passed in.
 */

const DAY_MS = 86_400_000;
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const NUMBER_WORDS: Record<string, number> = {
  a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, fifteen: 15, twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, ninety: 90, hundred: 100, couple: 2, few: 3,
};
const UNIT_DAYS: Record<string, number> = { day: 1, week: 7, month: 30, year: 365 };

/** "1,299.00" -> 1299, "149,90" -> 149.9, "1 299" -> 1299: one written number as a JavaScript number. */
function toNumber(written: string): number {
  let s = written.replace(/[\s']/g, '');
  if (/^\d{1,3}(,\d{3})+(\.\d+)?$/.test(s)) s = s.replace(/,/g, '');
  else if (/^\d{1,3}(\.\d{3})+(,\d+)?$/.test(s)) s = s.replace(/\./g, '').replace(',', '.');
  else s = s.replace(',', '.');
  return Number(s);
}

const WRITTEN_NUMBER = /(?<![\p{L}\d])-?\d{1,3}(?:[,.' ]\d{3})+(?:[.,]\d+)?(?!\d)|(?<![\p{L}\d])-?\d+(?:[.,]\d+)?(?!\d)/gu;
/** A currency sign or word: what makes a number an amount of money. */
export const CURRENCY = /[$€£¥]|\b(?:usd|eur|gbp|dollars?|euros?|pounds?|bucks)\b/i;

/** The number an answer gives: the one next to a currency when there are several, else the first. */
export function readNumber(text: string): number | undefined {
  const found = [...text.matchAll(WRITTEN_NUMBER)].map((m) => ({ value: toNumber(m[0]), at: m.index, end: m.index + m[0].length }));
  if (found.length === 0) return undefined;
  const money = found.find((n) => CURRENCY.test(text.slice(Math.max(0, n.at - 4), n.at)) || CURRENCY.test(text.slice(n.end, n.end + 9)));
  const value = (money ?? found[0]!).value;
  return Number.isFinite(value) ? value : undefined;
}

/**
 * The identifier an answer gives (an order, member or tracking number): a token with at least three
 * digits ("#48213", "AP-48213", "TR-55821"), preferring one after "order"/"number"/"#"; amounts,
 * durations and dates are skipped.
 */
export function readIdentifier(text: string): string | undefined {
  const tokens = [...text.matchAll(/#?\b([A-Za-z]{0,6}[-_/]?\d[\dA-Za-z\-_/]{2,40})\b/g)]
    .map((m) => ({ token: m[1]!, at: m.index }))
    .filter(({ token, at }) => {
      if ((token.match(/\d/g) ?? []).length < 3) return false;
      const before = text.slice(Math.max(0, at - 3), at);
      const after = text.slice(at + token.length, at + token.length + 12);
      if (/[$€£]\s*$/.test(before) || /^\s*(?:days?|weeks?|months?|years?|dollars?|euros?|usd|eur|units?|items?)\b/i.test(after)) return false;
      return !/^\d{4}-\d{2}-\d{2}$/.test(token) && !/^(?:19|20)\d{2}$/.test(token);
    });
  if (tokens.length === 0) return undefined;
  const cued = tokens.find(({ at }) => /(?:order|number|no\.?|nr\.?|#|id|ref(?:erence)?)\s*[:#]?\s*$/i.test(text.slice(Math.max(0, at - 12), at)) || text[at] === '#');
  return (cued ?? tokens[0]!).token;
}

function dayOf(today: string | undefined): number {
  const parsed = today ? Date.parse(`${today}T00:00:00Z`) : NaN;
  const now = Number.isFinite(parsed) ? new Date(parsed) : new Date();
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
}

/** A calendar date written in the text, as a UTC midnight in ms (a date without a year is the nearest one to today). */
function writtenDate(text: string, today: number): number | undefined {
  const iso = /\b(\d{4})-(\d{1,2})-(\d{1,2})\b/.exec(text);
  if (iso) return Date.UTC(Number(iso[1]), Number(iso[2]) - 1, Number(iso[3]));
  const slash = /\b(\d{1,2})[/.](\d{1,2})[/.](\d{2,4})\b/.exec(text);
  if (slash) {
    const year = Number(slash[3]) < 100 ? 2000 + Number(slash[3]) : Number(slash[3]);
    // Day first unless that cannot be (13/..): support leads and customers outside the US write it so.
    const [a, b] = [Number(slash[1]), Number(slash[2])];
    return b > 12 ? Date.UTC(year, a - 1, b) : Date.UTC(year, b - 1, a);
  }
  const month = `(${MONTHS.join('|')})[a-z]*\\.?`;
  const dayFirst = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${month}(?:,?\\s+(\\d{4}))?`, 'i').exec(text);
  const monthFirst = new RegExp(`\\b${month}\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b(?:,?\\s+(\\d{4}))?`, 'i').exec(text);
  const parts = dayFirst
    ? { day: Number(dayFirst[1]), month: dayFirst[2]!, year: dayFirst[3] }
    : monthFirst
      ? { day: Number(monthFirst[2]), month: monthFirst[1]!, year: monthFirst[3] }
      : null;
  if (!parts) return undefined;
  const m = MONTHS.indexOf(parts.month.slice(0, 3).toLowerCase());
  if (parts.year) return Date.UTC(Number(parts.year), m, parts.day);
  const thisYear = new Date(today).getUTCFullYear();
  const candidates = [thisYear - 1, thisYear, thisYear + 1].map((y) => Date.UTC(y, m, parts.day));
  return candidates.reduce((best, c) => (Math.abs(c - today) < Math.abs(best - today) ? c : best));
}

/**
 * The number of days between a time the customer gives and today (a count, whichever the
 * direction): "45 days ago" -> 45, "about 3 weeks ago" -> 21, "in 10 days" -> 10, a date -> the days
 * between it and today, "yesterday" -> 1; "20 days late" -> 20 (a bare duration counts).
 */
export function readDays(text: string, today?: string): number | undefined {
  const now = dayOf(today);
  const lower = text.toLowerCase();
  if (/\btoday\b/.test(lower)) return 0;
  if (/\b(?:yesterday|tomorrow)\b/.test(lower)) return 1;
  const date = writtenDate(text, now);
  if (date !== undefined && Number.isFinite(date)) return Math.round(Math.abs(now - date) / DAY_MS);
  const duration = /(\d+(?:[.,]\d+)?|\b[a-z]+)\s+(?:(?:and\s+a\s+half|more|full|whole)\s+)?(day|week|month|year)s?\b/i.exec(lower);
  if (duration) {
    const n = /\d/.test(duration[1]!) ? Number(duration[1]!.replace(',', '.')) : NUMBER_WORDS[duration[1]!];
    if (n !== undefined) return Math.round(n * UNIT_DAYS[duration[2]!]!);
  }
  const last = /\blast\s+(week|month|year)\b/.exec(lower);
  if (last) return UNIT_DAYS[last[1]!]!;
  return undefined;
}
