/**
 * Runs tasks side by side within a budget of cores: each task says how many cores it keeps busy (a conversion
 * suite about one, an end-to-end file that mostly waits on its service a fraction), and a task starts when it fits
 * in what the running ones leave. Longest first (by expected time), so the slowest tasks never start last.
 */
export interface ScheduledTask<T> {
  name: string;
  /** Cores it keeps busy on average. */
  cores: number;
  /** Seconds it is expected to take (its budget): the order of starts. */
  expectedSeconds: number;
  run(): Promise<T>;
}

export async function runScheduled<T>(tasks: ReadonlyArray<ScheduledTask<T>>, capacity: number): Promise<Map<string, T>> {
  const waiting = [...tasks].sort((a, b) => b.expectedSeconds - a.expectedSeconds);
  const results = new Map<string, T>();
  let busy = 0;
  let running = 0;
  return new Promise((resolve, reject) => {
    const startWhatFits = () => {
      // The first waiting task that fits; a task larger than the whole capacity runs alone.
      for (let i = 0; i < waiting.length; ) {
        const task = waiting[i]!;
        if (running > 0 && busy + task.cores > capacity) {
          i++;
          continue;
        }
        waiting.splice(i, 1);
        busy += task.cores;
        running++;
        task.run().then(
          (result) => {
            results.set(task.name, result);
            busy -= task.cores;
            running--;
            if (waiting.length === 0 && running === 0) resolve(results);
            else startWhatFits();
          },
          reject,
        );
      }
    };
    if (waiting.length === 0) resolve(results);
    else startWhatFits();
  });
}
