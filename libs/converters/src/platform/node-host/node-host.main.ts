import { createInterface } from 'node:readline';
import { ConversionError } from '../conversion-error.js';
import { type HostReply, type HostRequest, type HostTask, type HostTaskDeclaration, PROBE_TASK } from './node-host.protocol.js';

/**
 * The Node host: the program that runs, in an engine sandbox of its own, the code that would otherwise parse uploads
 * inside the worker's own process (sharp's libvips, our data, Office and PDF text readers). It answers one request at
 * a time, one JSON line each on stdout; whatever an upload does to it (a crash, a heap exhausted) ends this process,
 * never the worker. It runs the tasks it is given (the engines' registry, engines/node-host-tasks.ts, the entry point
 * esbuild bundles into dist/node-host/node-host.mjs; sharp stays outside), each loaded on its first request.
 */
export async function runNodeHost(declarations: readonly HostTaskDeclaration[]): Promise<void> {
  const byName = new Map(declarations.map((declaration) => [declaration.name, declaration]));
  if (byName.size !== declarations.length || byName.has(PROBE_TASK)) throw new Error('host tasks need names of their own');
  const loaded = new Map<string, Promise<HostTask>>();
  const taskNamed = (name: string): Promise<HostTask> => {
    const declaration = byName.get(name);
    if (!declaration) return Promise.reject(new Error(`the Node host has no task named ${name}`));
    let task = loaded.get(name);
    if (!task) loaded.set(name, (task = declaration.load()));
    return task;
  };
  const reply = (message: HostReply) => process.stdout.write(`${JSON.stringify(message)}\n`);

  async function answer(request: HostRequest): Promise<HostReply> {
    const { id } = request;
    try {
      if (request.task === PROBE_TASK) {
        const versions: Record<string, string> = {};
        for (const { name } of declarations.filter((declaration) => declaration.probed)) versions[name] = (await (await taskNamed(name)).version?.()) ?? '';
        return { id, ok: true, files: [], versions };
      }
      const task = await taskNamed(request.task);
      const { files, answer } = await task.run({
        request: request.request,
        inputPaths: request.inputPaths,
        outputDir: request.outputDir!,
        limits: request.limits!,
        onProgress: (progress) => reply({ id, progress }),
      });
      return { id, ok: true, files, ...(answer === undefined ? {} : { answer }) };
    } catch (error) {
      if (error instanceof ConversionError) return { id, ok: false, failureType: error.failureType, message: error.message, retryable: error.retryable, diagnostics: error.diagnostics };
      return { id, ok: false, failureType: 'unknown', message: 'The conversion failed unexpectedly.', retryable: false, diagnostics: String((error as Error)?.stack ?? error) };
    }
  }

  for await (const line of createInterface({ input: process.stdin })) {
    if (!line.trim()) continue;
    reply(await answer(JSON.parse(line) as HostRequest));
  }
}
