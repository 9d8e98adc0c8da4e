// Numbers as people read them: counts with separators, rates as percentages, durations in units
// ("1 min 20 s"), ratings out of 5, and the cards' change in words as well as colour.

const count = new Intl.NumberFormat('en-US');
const percent = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 });
const oneDecimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

export const formatCount = (n: number) => count.format(n);

/** A fraction in [0, 1] as a percentage ("42.5%"). */
export const formatPercent = (fraction: number) => percent.format(fraction);

/** A duration in milliseconds: "850 ms", "2.4 s", "12 s", "1 min 20 s", "2 h 5 min". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 9950) return `${oneDecimal.format(ms / 1000)} s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return seconds % 60 ? `${minutes} min ${seconds % 60} s` : `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
}

/** A 1-5 rating ("4.2 / 5"); no ratings read as such rather than 0. */
export const formatRating = (rating: number) => (rating > 0 ? `${oneDecimal.format(rating)} / 5` : 'no ratings');

/** A day of a series (`2026-11-27`) as "Fri, Nov 27" (the date is the time zone's already: read it as UTC). */
export function formatDay(date: string): string {
  return new Date(`${date}T00:00:00Z`).toLocaleDateString('en-US', { timeZone: 'UTC', weekday: 'short', month: 'short', day: 'numeric' });
}

/** A short axis label for a day ("Nov 27"). */
export function formatAxisDay(date: string): string {
  return new Date(`${date}T00:00:00Z`).toLocaleDateString('en-US', { timeZone: 'UTC', month: 'short', day: 'numeric' });
}

/** The change of a card in words ("Up 12.5%", "Down 3%", "No change"); the route's change is relative. */
export function formatChange(change: number, comparisonValue: number): string {
  if (comparisonValue === 0) return 'No earlier data';
  if (Math.abs(change) < 0.0005) return 'No change';
  return `${change > 0 ? 'Up' : 'Down'} ${percent.format(Math.abs(change))}`;
}
