import { type ContentLoss, isLossyFormat } from '@fileshift/formats';
import type { OptionName } from './conversion-options.js';
import { type ConversionPlan, engineChoices, lossesOfPlan, optionsOfPlan, type PlanStep } from './conversion-plan.js';
import type { EngineClass, EngineDescriptor, EngineJoin } from './engine-descriptor.js';

export const MAX_PLAN_STEPS = 3;
/** A join an engine of the graph makes (see EngineJoin), with its engine. */
export interface GraphJoin extends EngineJoin {
  engine: string;
  engineClass: EngineClass;
  cost: number;
}

/** Added per step, so of two plans of equal engine cost the shorter wins. */
const STEP_OVERHEAD = 0.5;

interface Edge extends PlanStep {
  recommended: boolean;
  firstStepOnly: boolean;
  lastStepOnly: boolean;
  passesOnOnlyToLoseLess: boolean;
  onlyAfter?: EngineClass;
  engineClass: EngineDescriptor['engineClass'];
}

/**
 * Pure: the conversions the given engines make possible. A conversion is a plan of up to three steps (docx → pdf →
 * png); the plan that loses the least content wins, of those the cheapest (a PDF's tables reach DOCX through our
 * Markdown reader, not through pdftohtml's page layout, which costs less), and where two engines offer one pair the
 * dearer one is the fallback. What the two end formats cannot hold is lost by every plan of a pair alike, so it is
 * what engines lose on the way that tells plans apart. A step whose output passes on only to lose less (see
 * EnginePair.passesOnOnlyToLoseLess) is in a longer plan only where that plan loses less than every other. Only a
 * plan's last step may write several files (one per page), a
 * pair marked first-step-only starts a plan or is not in it, one marked last-step-only ends it or is not in it, and
 * a format is never visited twice. An engine's pair from a format to itself (pdf → pdf: PDF/A, compression) is a
 * plan of its own and never a step of a longer one. A plan never passes through a lossy format (jpg, mp3, gif…): a
 * detour must not lose what its ends can hold, nor add a generation of loss to a lossy source.
 */
export class ConversionGraph {
  private readonly edges = new Map<string, Edge[]>();
  private readonly joins: GraphJoin[] = [];
  // A graph never changes (a new set of engines makes a new graph), so its answers are kept.
  private readonly plansMemo = new Map<string, ConversionPlan[]>();
  private readonly targetsMemo = new Map<string, string[]>();

  constructor(descriptors: readonly EngineDescriptor[]) {
    for (const descriptor of descriptors) {
      for (const join of descriptor.joins ?? []) this.joins.push({ ...join, engine: descriptor.id, engineClass: descriptor.engineClass, cost: join.cost ?? descriptor.cost });
      for (const pair of descriptor.pairs) {
        const from = pair.from.toLowerCase();
        const edge: Edge = {
          engine: descriptor.id,
          from,
          to: pair.to.toLowerCase(),
          options: pair.options ?? [],
          multipleOutputs: Boolean(pair.multipleOutputs),
          cost: pair.cost ?? descriptor.cost,
          recommended: Boolean(pair.recommended),
          firstStepOnly: Boolean(pair.firstStepOnly),
          lastStepOnly: Boolean(pair.lastStepOnly),
          passesOnOnlyToLoseLess: Boolean(pair.passesOnOnlyToLoseLess),
          onlyAfter: pair.onlyAfter,
          losses: pair.losses ?? [],
          chosenBy: pair.chosenBy ?? [],
          engineClass: descriptor.engineClass,
        };
        this.edges.set(from, [...(this.edges.get(from) ?? []), edge]);
      }
    }
    // Cheapest first; among equals the engine listed first (the registry's preference).
    for (const list of this.edges.values()) list.sort((a, b) => a.cost - b.cost);
  }

  /** The engines whose pairs make the graph. */
  engines(): string[] {
    return [...new Set([...this.edges.values()].flat().map((edge) => edge.engine))];
  }

  /** The plan that loses least from one format to another (the cheapest of those), or undefined. */
  plan(from: string, to: string): ConversionPlan | undefined {
    return this.plans(from, to)[0];
  }

  /** Every plan from one format to another, those that lose least first, the cheapest first among them: the first is used, the others are fallbacks. */
  plans(from: string, to: string): ConversionPlan[] {
    const key = `${from.toLowerCase()}>${to.toLowerCase()}`;
    let plans = this.plansMemo.get(key);
    if (!plans) this.plansMemo.set(key, (plans = this.findPlans(from.toLowerCase(), to.toLowerCase())));
    return plans;
  }

  private findPlans(source: string, target: string): ConversionPlan[] {
    const found: ConversionPlan[] = [];
    if (source === target) {
      for (const edge of this.edgesFrom(source)) if (edge.to === target) found.push(toPlan([edge]));
      return found;
    }
    const toLoseLess = new Set<ConversionPlan>();
    const walk = (path: Edge[], at: string, visited: Set<string>) => {
      for (const edge of this.edgesFrom(at)) {
        if (edge.to === edge.from || visited.has(edge.to) || !mayFollow(edge, path)) continue;
        if (edge.to === target) {
          const plan = toPlan([...path, edge]);
          found.push(plan);
          if (path.some((step) => step.passesOnOnlyToLoseLess)) toLoseLess.add(plan);
        } else if (canPassThrough(edge, path.length, true)) walk([...path, edge], edge.to, new Set([...visited, edge.to]));
      }
    };
    walk([], source, new Set([source]));
    const others = found.filter((plan) => !toLoseLess.has(plan));
    const leastLost = Math.min(...others.map((plan) => lossesOfPlan(plan).length));
    // Where no other plan reaches the target, none is kept: such a step makes no pair of its own.
    return found
      .filter((plan) => !toLoseLess.has(plan) || (others.length > 0 && lossesOfPlan(plan).length < leastLost))
      .sort((a, b) => lossesOfPlan(a).length - lossesOfPlan(b).length || a.cost - b.cost || a.steps.length - b.steps.length);
  }

  /** Every format some plan reaches from `from`. */
  targetsOf(from: string): string[] {
    const source = from.toLowerCase();
    let targets = this.targetsMemo.get(source);
    if (!targets) this.targetsMemo.set(source, (targets = this.findTargets(source)));
    return targets;
  }

  private findTargets(source: string): string[] {
    const reached = new Set<string>();
    for (const edge of this.edgesFrom(source)) if (edge.to === source) reached.add(source);
    const walk = (at: string, path: Edge[], visited: Set<string>) => {
      for (const edge of this.edgesFrom(at)) {
        if (edge.to === edge.from || visited.has(edge.to) || !mayFollow(edge, path)) continue;
        reached.add(edge.to);
        // A step that passes on only to lose less reaches nothing that another plan does not.
        if (canPassThrough(edge, path.length, false)) walk(edge.to, [...path, edge], new Set([...visited, edge.to]));
      }
    };
    walk(source, [], new Set([source]));
    return [...reached];
  }

  canConvert(from: string, to: string): boolean {
    return this.plan(from, to) !== undefined;
  }

  /** A target worth offering first: every step of its first plan is a recommended pair. */
  isRecommended(from: string, to: string): boolean {
    const plan = this.plan(from, to);
    if (!plan) return false;
    return plan.steps.every((step) => this.edgesFrom(step.from).some((edge) => edge.engine === step.engine && edge.to === step.to && edge.recommended));
  }

  /** The options a caller may ask of a conversion: those of each engine choice (pdf → pdf: Ghostscript's pdfa, OCRmyPDF's ocr). */
  optionsOf(from: string, to: string): OptionName[] {
    return [...new Set(engineChoices(this.plans(from, to)).flatMap((plan) => optionsOfPlan(plan)))].sort();
  }

  /** What converting `from` to `to` loses, by its first plan (none when there is no plan). */
  lossesOf(from: string, to: string): ContentLoss[] {
    const plan = this.plan(from, to);
    return plan ? lossesOfPlan(plan) : [];
  }

  /** The joins into a format, cheapest first (among equals the engine listed first). */
  joinsInto(format: string): GraphJoin[] {
    return this.joins.filter((join) => join.into === format.toLowerCase()).sort((a, b) => a.cost - b.cost);
  }

  /** Every format some join writes. */
  joinTargets(): string[] {
    return [...new Set(this.joins.map((join) => join.into))].sort();
  }

  sourceFormats(): string[] {
    return [...this.edges.keys()];
  }

  private edgesFrom(format: string): readonly Edge[] {
    return this.edges.get(format) ?? [];
  }
}

/** Whether a step may follow the steps before it: a first-step-only pair starts a plan, an only-after pair follows its class. */
function mayFollow(edge: Edge, before: readonly Edge[]): boolean {
  if (before.length === 0) return true;
  return !edge.firstStepOnly && (edge.onlyAfter === undefined || before.every((step) => step.engineClass === edge.onlyAfter));
}

/**
 * Whether a plan may go on from this step's output: one file meant for another engine, steps left, and not a lossy
 * detour; from a step that passes on only to lose less, where `toLoseLess` allows it.
 */
function canPassThrough(edge: Edge, stepsBefore: number, toLoseLess: boolean): boolean {
  return !edge.multipleOutputs && !edge.lastStepOnly && (toLoseLess || !edge.passesOnOnlyToLoseLess) && stepsBefore + 1 < MAX_PLAN_STEPS && !isLossyFormat(edge.to);
}

function toPlan(edges: Edge[]): ConversionPlan {
  const heaviest = edges.reduce((a, b) => (b.cost > a.cost ? b : a));
  return {
    steps: edges.map(({ engine, from, to, options, multipleOutputs, cost, losses, chosenBy }) => ({ engine, from, to, options, multipleOutputs, cost, losses, chosenBy })),
    cost: edges.reduce((sum, edge) => sum + edge.cost + STEP_OVERHEAD, 0),
    engineClass: heaviest.engineClass,
  };
}
