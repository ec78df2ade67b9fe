import { canLose, type ContentLoss, contentLosses } from '@fileshift/formats';
import type { OptionName } from './conversion-options.js';
import type { EngineClass } from './engine-descriptor.js';

/** One step of a plan: an engine converting between two formats, with the options it honours there. */
export interface PlanStep {
  engine: string;
  from: string;
  to: string;
  options: readonly OptionName[];
  multipleOutputs: boolean;
  cost: number;
  /** What this engine loses on this pair beyond what the formats imply (see EnginePair.losses). */
  losses: readonly ContentLoss[];
}

/** How a conversion runs: up to three steps, the queue (engine class) it waits in, its cost. */
export interface ConversionPlan {
  steps: readonly PlanStep[];
  cost: number;
  engineClass: EngineClass;
}

/** Every option some step of the plan honours. */
export function optionsOfPlan(plan: ConversionPlan): OptionName[] {
  return [...new Set(plan.steps.flatMap((step) => step.options))];
}

/**
 * What the plan's output lacks of its input: what the two end formats imply, and what each step's engine loses of
 * what the input can hold.
 */
export function lossesOfPlan(plan: ConversionPlan): ContentLoss[] {
  const from = plan.steps[0]!.from;
  const to = plan.steps.at(-1)!.to;
  const engineLosses = plan.steps.flatMap((step) => step.losses).filter((loss) => canLose(from, loss));
  return [...new Set([...contentLosses(from, to), ...engineLosses])];
}

/** Progress weights of the steps, by cost: a LibreOffice step counts more than a raster one. */
export function stepWeights(plan: ConversionPlan): number[] {
  const total = plan.steps.reduce((sum, step) => sum + step.cost, 0);
  return plan.steps.map((step) => step.cost / total);
}
