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
  /** Options that choose a plan ending in this step over a cheaper one (see EnginePair.chosenBy). */
  chosenBy: readonly OptionName[];
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
 * Pure: of plans cheapest first, the choices a caller picks between with options: the cheapest, and the first plan of
 * each other engine whose last step options choose (pdf → pdf: Ghostscript's, or OCRmyPDF's with `ocr`). The other
 * plans are fallbacks.
 */
export function engineChoices(plans: readonly ConversionPlan[]): ConversionPlan[] {
  const seen = new Set<string>();
  return plans.filter((plan, index) => {
    const last = plan.steps.at(-1)!;
    if (seen.has(last.engine) || (index > 0 && last.chosenBy.length === 0)) return false;
    seen.add(last.engine);
    return true;
  });
}

/**
 * Pure: the plans for options asked by name, cheapest first: those that honour them all, less those ending in a pair
 * only options choose (`chosenBy`) when none of its options is asked. The first must be the cheapest plan or one an
 * asked option chooses (a dpi never turns png → jpg into png → pdf → jpg); empty when there is none. The rest are
 * its fallbacks, whichever engine they end in (html → pdf: Chromium's, then LibreOffice's).
 */
export function plansTaking(plans: readonly ConversionPlan[], asked: readonly string[]): ConversionPlan[] {
  const chosenByAsked = (plan: ConversionPlan) => plan.steps.at(-1)!.chosenBy.some((name) => asked.includes(name));
  const eligible = plans.filter(
    (plan) => asked.every((name) => (optionsOfPlan(plan) as string[]).includes(name)) && (plan.steps.at(-1)!.chosenBy.length === 0 || chosenByAsked(plan)),
  );
  const first = eligible[0];
  return first && (first === plans[0] || chosenByAsked(first)) ? eligible : [];
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
