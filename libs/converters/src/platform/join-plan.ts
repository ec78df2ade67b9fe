import type { ConversionGraph, GraphJoin } from './conversion-graph.js';
import { lossesOfPlan, type ConversionPlan } from './conversion-plan.js';
import type { EngineClass } from './engine-descriptor.js';

/**
 * How several files become one: each member converted to a format the join takes (its plans, cheapest first; none
 * when the join takes it as it is), then joined by one engine.
 */
export interface JoinPlan {
  /** The engine that joins. */
  engine: string;
  into: string;
  /** Per member, in order: its plans to a format the join takes, the first used, the rest fallbacks; empty: taken as it is. */
  memberPlans: ConversionPlan[][];
  /** The queue the job waits in: that of its heaviest step. */
  engineClass: EngineClass;
}

/** A refusal names the member (0-based) that stopped the join, or none when nothing joins into the target. */
export type JoinPlanning = { ok: true; plan: JoinPlan } | { ok: false; member?: number; message: string };

/**
 * Pure: the join of files of these formats (undefined: the bytes show none) into `target`. Of the joins into the
 * target, cheapest first, the first that takes every member: as it is (an archive takes any file; img2pdf a picture),
 * or through a plan to a format it takes that writes one file (a DOCX to PDF before the PDFs are merged) — of those
 * formats the one whose plan loses least, then costs least. When no join takes every member, the refusal names the
 * member that stopped the join that took most of them.
 */
export function planJoin(graph: ConversionGraph, memberFormats: ReadonlyArray<string | undefined>, target: string): JoinPlanning {
  const joins = graph.joinsInto(target);
  if (joins.length === 0) return { ok: false, message: `Files are not joined into ${target} here; ${describeTargets(graph)}.` };
  let refusal: JoinPlanning | undefined;
  for (const join of joins) {
    const memberPlans: ConversionPlan[][] = [];
    for (const [index, format] of memberFormats.entries()) {
      const plans = plansToJoin(graph, join, format);
      if (!plans) {
        // The join that takes most members before one it cannot names that one.
        if (!refusal || (!refusal.ok && index > (refusal.member ?? -1))) refusal = { ok: false, member: index, message: refusalOf(join, format, index) };
        break;
      }
      memberPlans.push(plans);
    }
    if (memberPlans.length === memberFormats.length) return { ok: true, plan: { engine: join.engine, into: join.into, memberPlans, engineClass: heaviestClass(join, memberPlans) } };
  }
  return refusal!;
}

/** A member's plans to a format `join` takes: [] as it is, undefined when it cannot reach one. */
function plansToJoin(graph: ConversionGraph, join: GraphJoin, format: string | undefined): ConversionPlan[] | undefined {
  if (join.members === 'any') return [];
  if (format === undefined) return undefined;
  if (join.members.includes(format)) return [];
  const candidates = join.members
    .map((member) => graph.plans(format, member).filter((plan) => !plan.steps.at(-1)!.multipleOutputs))
    .filter((plans) => plans.length > 0)
    .sort((a, b) => lossesOfPlan(a[0]!).length - lossesOfPlan(b[0]!).length || a[0]!.cost - b[0]!.cost);
  return candidates[0];
}

function refusalOf(join: GraphJoin, format: string | undefined, index: number): string {
  const member = `File ${index + 1}`;
  const taken = join.members === 'any' ? 'any file' : join.members.join(', ');
  return format === undefined
    ? `${member}: its first bytes show no format this service knows, so it cannot be joined into ${join.into} (a join into ${join.into} takes ${taken}, or what converts to it).`
    : `${member} is ${format}, which cannot be joined into ${join.into} (a join into ${join.into} takes ${taken}, or what converts to it).`;
}

function describeTargets(graph: ConversionGraph): string {
  const targets = graph.joinTargets();
  return targets.length > 0 ? `several files join into ${targets.join(', ')}` : 'no engine that joins files runs now';
}

/** The class of the costliest step of the join and its members' plans. */
function heaviestClass(join: GraphJoin, memberPlans: ConversionPlan[][]): EngineClass {
  let heaviest = { cost: join.cost, engineClass: join.engineClass };
  for (const plans of memberPlans) if (plans[0] && plans[0].cost > heaviest.cost) heaviest = plans[0];
  return heaviest.engineClass;
}
