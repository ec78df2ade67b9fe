/** A suite's (or the build's) time in one run. */
export interface SuiteTime {
  name: string;
  seconds: number;
  budget?: number;
  passed: boolean;
  /** CPU seconds of all its processes, where the machine lets the runner measure them. */
  cpuSeconds?: number;
}

/** How far past its budget a suite may grow before CI fails it. */
export const BUDGET_TOLERANCE = 1.5;

export function checkBudgets(times: readonly SuiteTime[]): SuiteTime[] {
  return times.filter((time) => time.budget !== undefined && time.seconds > time.budget * BUDGET_TOLERANCE);
}

const minutes = (seconds: number) => `${Math.floor(seconds / 60)}:${String(Math.round(seconds % 60)).padStart(2, '0')}`;

/** Each suite's time against its budget, slowest first, and the run's wall time. */
export function timesTable(times: readonly SuiteTime[], wallSeconds: number): string {
  const width = Math.max(...times.map((time) => time.name.length), 10);
  const rows = [...times]
    .sort((a, b) => b.seconds - a.seconds)
    .map((time) => {
      const share = time.budget ? `${Math.round((100 * time.seconds) / time.budget)} %`.padStart(6) : '      ';
      const cpu = time.cpuSeconds === undefined || Number.isNaN(time.cpuSeconds) ? '     -' : minutes(time.cpuSeconds).padStart(6);
      return `  ${time.name.padEnd(width)}  ${minutes(time.seconds).padStart(6)}  ${time.budget ? minutes(time.budget).padStart(6) : '     -'}  ${share}  ${cpu}  ${time.passed ? 'passed' : 'FAILED'}`;
    });
  const summed = times.reduce((sum, time) => sum + (time.name === 'build' ? 0 : time.seconds), 0);
  const cpuSummed = times.reduce((sum, time) => sum + (time.cpuSeconds && !Number.isNaN(time.cpuSeconds) ? time.cpuSeconds : 0), 0);
  return [
    `suite times (min:s): wall time, its budget and the share of it used, CPU time of all its processes`,
    `  ${'suite'.padEnd(width)}  ${'time'.padStart(6)}  ${'budget'.padStart(6)}  ${'share'.padStart(6)}  ${'CPU'.padStart(6)}`,
    ...rows,
    `  ${'total (wall)'.padEnd(width)}  ${minutes(wallSeconds).padStart(6)}   (suites' times summed: ${minutes(summed)}${cpuSummed > 0 ? `; CPU: ${minutes(cpuSummed)}` : ''})`,
  ].join('\n');
}
