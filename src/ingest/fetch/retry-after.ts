/**
 * The wait a server asked for, in milliseconds from `now`: `retry-after-ms`, else `Retry-After` in
 * seconds or as an HTTP date (RFC 9110 §10.2.3); undefined when it asked for nothing usable.
 * Header names are lower case. Callers cap it as their policy says.
 */
export function requestedWaitMs(headers: Readonly<Record<string, string | undefined>> | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  let ms: number | undefined;
  const precise = headers['retry-after-ms'];
  const coarse = headers['retry-after'];
  if (precise !== undefined && precise.trim() !== '' && Number.isFinite(Number(precise))) {
    ms = Number(precise);
  } else if (coarse !== undefined && coarse.trim() !== '') {
    ms = Number.isFinite(Number(coarse)) ? Number(coarse) * 1000 : Date.parse(coarse) - now;
  }
  if (ms === undefined || Number.isNaN(ms)) return undefined;
  return Math.max(0, Math.ceil(ms));
}
