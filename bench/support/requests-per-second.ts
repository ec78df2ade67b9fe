import autocannon from 'autocannon';

/** One endpoint under load: what to send and the one status that counts as its right answer. */
export interface LoadTarget {
  label: string;
  url: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: Buffer | string;
  expectedStatus: number;
}

/**
 * Requests per second of `target` under autocannon (10 connections). Any answer but the expected status,
 * a socket error or a timeout fails the run: a fast wrong answer must not pass for a fast right one.
 */
export async function requestsPerSecond(target: LoadTarget, seconds: number): Promise<number> {
  const result = await autocannon({
    url: target.url,
    method: target.method,
    connections: 10,
    duration: seconds,
    ...(target.headers ? { headers: target.headers } : {}),
    ...(target.body !== undefined ? { body: target.body } : {}),
  });
  const expected = result.statusCodeStats[String(target.expectedStatus) as keyof typeof result.statusCodeStats]?.count ?? 0;
  const others = Object.entries(result.statusCodeStats).filter(([status]) => status !== String(target.expectedStatus));
  if (others.length > 0 || result.errors > 0 || result.timeouts > 0 || expected === 0) {
    const seen = others.map(([status, { count }]) => `${count}× ${status}`).join(', ') || 'none';
    throw new Error(`${target.label}: ${expected} answers ${target.expectedStatus}, others: ${seen}, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  return expected / (result.duration || seconds);
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
