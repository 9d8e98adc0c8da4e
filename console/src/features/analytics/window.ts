// The dashboard's window and filters, kept in the address (`?days=30&tz=Europe/Berlin&channel=chat`)
// so that a reload or a shared link shows the same numbers, and turned into the route's query.
// Windows are whole days of the chosen time zone, as the route's daily series are.

export const PRESETS = [7, 30, 90, 365] as const;
export const DEFAULT_DAYS = 30;

/** The route's list filters, by their query names (the same names in the address). */
export const LIST_FILTERS = ['source', 'channel', 'latestStatus', 'latestSentiment', 'usedSubfolderIds', 'tagIds', 'ruleIds', 'escalationReasonTagIds', 'csatRatings'] as const;
export type ListFilter = (typeof LIST_FILTERS)[number];
export type Filters = Record<ListFilter, string[]>;

export interface DashboardState {
  /** A preset (the last `days` days, today included), or a custom window of dates (both included). */
  days?: number;
  from?: string;
  to?: string;
  timezone: string;
  filters: Filters;
}

export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export function readState(search: URLSearchParams): DashboardState {
  const from = search.get('from') ?? '';
  const to = search.get('to') ?? '';
  const days = Number(search.get('days'));
  const filters = Object.fromEntries(LIST_FILTERS.map((name) => [name, search.getAll(name).flatMap((v) => v.split(',')).filter(Boolean)])) as Filters;
  const timezone = search.get('tz') || browserTimeZone();
  if (DATE.test(from) && DATE.test(to)) return { from, to, timezone, filters };
  return { days: Number.isInteger(days) && days > 0 ? days : DEFAULT_DAYS, timezone, filters };
}

/** The address query of a state; the browser's time zone and an empty filter are left out. */
export function writeState(state: DashboardState): string {
  const search = new URLSearchParams();
  if (state.from && state.to) {
    search.set('from', state.from);
    search.set('to', state.to);
  } else if (state.days && state.days !== DEFAULT_DAYS) search.set('days', String(state.days));
  if (state.timezone !== browserTimeZone()) search.set('tz', state.timezone);
  for (const name of LIST_FILTERS) for (const value of state.filters[name]) search.append(name, value);
  return search.toString();
}

/** `YYYY-MM-DD` of an instant in a time zone. */
export function dateIn(instant: number, timezone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(instant);
}

/** Milliseconds the zone is ahead of UTC at an instant. */
function offsetAt(instant: number, timezone: string): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone: timezone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' })
      .formatToParts(instant)
      .map((p) => [p.type, Number(p.value)]),
  );
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!) - Math.floor(instant / 1000) * 1000;
}

/** The instant a day starts in a time zone (computed twice so a daylight-saving change that day lands right). */
export function startOfDay(date: string, timezone: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const utc = Date.UTC(y, m - 1, d);
  const first = utc - offsetAt(utc, timezone);
  return utc - offsetAt(first, timezone);
}

export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** The first and last day of the window (both included) as dates of its time zone. */
export function windowDays(state: DashboardState, now = Date.now()): { first: string; last: string } {
  if (state.from && state.to) return { first: state.from, last: state.to };
  const last = dateIn(now, state.timezone);
  return { first: addDays(last, 1 - (state.days ?? DEFAULT_DAYS)), last };
}

/** The route's query: the window `[first day's start, the day after the last's start)` in seconds, the zone and the filters. */
export function routeQuery(state: DashboardState, now = Date.now()) {
  const { first, last } = windowDays(state, now);
  const query: Record<string, string | number | string[]> = {
    startEpoch: Math.floor(startOfDay(first, state.timezone) / 1000),
    endEpoch: Math.floor(startOfDay(addDays(last, 1), state.timezone) / 1000),
    timezone: state.timezone,
  };
  for (const name of LIST_FILTERS) if (state.filters[name].length > 0) query[name] = state.filters[name];
  return query as { startEpoch: number; endEpoch: number; timezone: string } & Partial<Record<ListFilter, string[]>>;
}
