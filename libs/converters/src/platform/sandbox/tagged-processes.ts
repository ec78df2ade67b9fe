import { readdir, readFile } from 'node:fs/promises';

export interface TaggedProcess {
  pid: number;
  /** The executable's name as the kernel knows it (e.g. soffice.bin, oosplash, python3). */
  name: string;
  commandLine: string;
}

/**
 * The live processes whose command line contains `tag` (Linux /proc). A warm engine's processes all carry its
 * directory's name, so stragglers that left its process group are found too. Zombies are not alive.
 */
export async function processesTagged(tag: string): Promise<TaggedProcess[]> {
  const entries = await readdir('/proc').catch(() => [] as string[]);
  const found: TaggedProcess[] = [];
  await Promise.all(
    entries
      .filter((entry) => /^\d+$/.test(entry) && Number(entry) !== process.pid)
      .map(async (entry) => {
        const commandLine = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
        if (!commandLine.includes(tag)) return;
        const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
        const match = /^\d+ \((.*)\) (\S)/.exec(stat);
        if (!match || match[2] === 'Z' || match[2] === 'X') return;
        found.push({ pid: Number(entry), name: match[1]!, commandLine: commandLine.split('\0').join(' ').trim() });
      }),
  );
  return found.sort((a, b) => a.pid - b.pid);
}

/** SIGKILL to every live process whose command line carries `tag`; how many there were. */
export async function killTagged(tag: string): Promise<number> {
  const stragglers = await processesTagged(tag);
  for (const { pid } of stragglers) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
  return stragglers.length;
}
