/**
 * Seconds to wait as a Retry-After header says: delta-seconds, or an HTTP date (RFC 9110 §10.2.3)
 * counted from `now`. Undefined when the header is absent or unreadable. At least 1: a date already
 * past (the clocks of client and server differ) must not make a client retry in a tight loop.
 */
export function retryAfterSeconds(header: string | null, now: number): number | undefined {
  const value = header?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Math.max(1, Number(value));
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(1, Math.ceil((date - now) / 1000));
}
