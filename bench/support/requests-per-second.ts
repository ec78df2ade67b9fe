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
 * Answers per wall-clock second, and per second of this process's CPU time: when other work on the machine takes
 * the CPUs away for part of a run, the first drops and the second does not (the load generator and the server
 * run in this process; work done in Redis is not counted).
 */
export interface Throughput {
  perSecond: number;
  perCpuSecond: number;
}

/**
 * Requests per second of `target` under autocannon (10 connections). Any answer but the expected status,
 * a socket error or a timeout fails the run: a fast wrong answer must not pass for a fast right one.
 */
export async function requestsPerSecond(target: LoadTarget, seconds: number): Promise<Throughput> {
  const cpuBefore = process.cpuUsage();
  const result = await autocannon({
    url: target.url,
    method: target.method,
    connections: 10,
    duration: seconds,
    ...(target.headers ? { headers: target.headers } : {}),
    ...(target.body !== undefined ? { body: target.body } : {}),
  });
  const statuses: Record<string, { count?: number }> = result.statusCodeStats ?? {};
  const expected = statuses[String(target.expectedStatus)]?.count ?? 0;
  const others = Object.entries(statuses).filter(([status]) => status !== String(target.expectedStatus));
  if (others.length > 0 || result.errors > 0 || result.timeouts > 0 || expected === 0) {
    const seen = others.map(([status, { count }]) => `${count}× ${status}`).join(', ') || 'none';
    throw new Error(`${target.label}: ${expected} answers ${target.expectedStatus}, others: ${seen}, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  const cpu = process.cpuUsage(cpuBefore);
  return { perSecond: expected / (result.duration || seconds), perCpuSecond: expected / ((cpu.user + cpu.system) / 1e6) };
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
