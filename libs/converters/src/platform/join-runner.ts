import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ConversionError } from './conversion-error.js';
import type { ConversionOptions } from './conversion-options.js';
import type { EngineRuntime } from './engine-runtime.js';
import type { JoinPlan } from './join-plan.js';
import { runPlan, type StepTiming } from './plan-runner.js';

/** One file of a join, in the job's scratch directory. */
export interface JoinMemberFile {
  path: string;
  /** Its format, as the evidence rule found it (undefined: the bytes show none; only an archive takes it). */
  format: string | undefined;
  /** The caller's name for it, checked safe: an archive's entry name, and how a failure names it. */
  name: string;
}

export interface JoinRun {
  plan: JoinPlan;
  members: readonly JoinMemberFile[];
  /** The job's scratch directory: each member's conversion and the join get a directory of their own inside it. */
  workDir: string;
  options: ConversionOptions;
  signal: AbortSignal;
  /** 0..100 over the members' conversions and the join. */
  onProgress?: (percent: number) => void;
  onStepEnd?: (step: StepTiming) => void;
}

export interface JoinResult {
  files: string[];
  notes: string[];
  /** The plan each member ran (undefined: taken as it is), for the delivery record. */
  memberSteps: Array<Array<{ engine: string; from: string; to: string }> | undefined>;
}

/**
 * Runs a join: each member converted by the first of its plans whose engines run here (as runPlan does), then the
 * joining engine's `join` over them in order. A member that fails fails the job, named by its position and name.
 */
export async function runJoin(run: JoinRun, runtimes: ReadonlyMap<string, EngineRuntime>): Promise<JoinResult> {
  const joiner = runtimes.get(run.plan.engine);
  if (!joiner?.join) throw new ConversionError('provider_error', 'The engine that joins these files does not run on this worker.', true);
  const converting = run.plan.memberPlans.filter((plans) => plans.length > 0).length;
  // Each member's conversion and the join weigh alike.
  const parts = converting + 1;
  let done = 0;
  const notes: string[] = [];
  const memberSteps: JoinResult['memberSteps'] = [];
  const joined: Array<{ path: string; format: string; name: string }> = [];
  for (const [index, member] of run.members.entries()) {
    run.signal.throwIfAborted();
    const plans = run.plan.memberPlans[index] ?? [];
    if (plans.length === 0) {
      memberSteps.push(undefined);
      joined.push({ path: member.path, format: member.format ?? 'bin', name: member.name });
      continue;
    }
    const workDir = join(run.workDir, `member-${index + 1}`);
    mkdirSync(workDir, { recursive: true });
    const partDone = done;
    try {
      const result = await runPlan(
        { plans, inputPath: member.path, workDir, options: {}, signal: run.signal, onStepEnd: run.onStepEnd, onProgress: (percent) => run.onProgress?.(Math.round(((partDone + percent / 100) / parts) * 100)) },
        runtimes,
      );
      if (result.files.length !== 1) throw new ConversionError('unknown', 'A member of the join was converted to several files.');
      memberSteps.push(result.plan.steps.map(({ engine, from, to }) => ({ engine, from, to })));
      notes.push(...result.notes);
      joined.push({ path: result.files[0]!, format: result.plan.steps.at(-1)!.to, name: member.name });
    } catch (error) {
      throw namingMember(error, index, member.name);
    }
    done++;
    run.onProgress?.(Math.round((done / parts) * 100));
  }
  const outputDir = join(run.workDir, 'joined');
  mkdirSync(outputDir, { recursive: true });
  const startedAt = performance.now();
  const timed = (ok: boolean) => run.onStepEnd?.({ engine: joiner.descriptor.id, from: 'members', to: run.plan.into, seconds: (performance.now() - startedAt) / 1000, ok });
  try {
    const outcome = await joiner.join(
      { members: joined, outputDir, to: run.plan.into, options: run.options },
      { signal: run.signal, limits: joiner.descriptor.limits, workDir: run.workDir, onProgress: (percent) => run.onProgress?.(Math.round(((done + percent / 100) / parts) * 100)) },
    );
    timed(true);
    if (outcome.files.length === 0) throw new ConversionError('unsupported_or_corrupt_input', 'The join produced no output.');
    return { files: outcome.files, notes: [...notes, ...(outcome.notes ?? [])], memberSteps };
  } catch (error) {
    timed(false);
    throw error;
  }
}

/** A member's failure, its message prefixed with which member it was (the failure type stays). */
function namingMember(error: unknown, index: number, name: string): unknown {
  if (!(error instanceof ConversionError)) return error;
  return new ConversionError(error.failureType, `File ${index + 1} (${name}): ${error.message}`, error.retryable, error.diagnostics);
}
