import { createHash, timingSafeEqual } from 'node:crypto';

export type MetricsAccess = 'granted' | 'refused';

/**
 * Whether a scrape carries the configured token as `Authorization: Bearer <token>`. Compared in constant
 * time (as digests, so lengths do not show either): the endpoint is reachable wherever the API is.
 */
export function metricsAccess(token: string, authorization: string | string[] | undefined): MetricsAccess {
  if (typeof authorization !== 'string') return 'refused';
  const match = /^Bearer +(\S+) *$/i.exec(authorization);
  if (!match) return 'refused';
  return timingSafeEqual(digest(match[1]!), digest(token)) ? 'granted' : 'refused';
}

const digest = (text: string) => createHash('sha256').update(text).digest();
