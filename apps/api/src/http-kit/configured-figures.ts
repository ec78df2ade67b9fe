/**
 * Figures of the configuration (prices, limits) that the OpenAPI text names. A decorator's text is fixed when its
 * class loads, before any configuration is read, so it names such a figure by its placeholder, and the document is
 * built with every placeholder filled in from the configuration (discovery/openapi-figures.ts): the text never
 * states a figure that the configuration may change.
 */
export const CONFIGURED = {
  /** The result prices, e.g. "0.02 or 0.04 USDC". */
  resultPrices: '{{resultPrices}}',
  /** The upload limit of a new key, e.g. "40 MB". */
  keyMaxUpload: '{{keyMaxUpload}}',
  /** The upload limit without a key, e.g. "5 MB". */
  anonymousMaxUpload: '{{anonymousMaxUpload}}',
  /** How long the key API's convert waits for the job, in seconds. */
  convertWaitSeconds: '{{convertWaitSeconds}}',
  /** A source URL's time limits, e.g. "60 s in all, and 15 s without data". */
  sourceUrlTimeLimits: '{{sourceUrlTimeLimits}}',
} as const;

export type ConfiguredFigure = keyof typeof CONFIGURED;

const PLACEHOLDER = /\{\{(\w+)\}\}/g;

/** Pure: a JSON value with every placeholder in its strings replaced by its figure; a placeholder of no figure is refused. */
export function fillConfiguredFigures<T>(value: T, figures: Readonly<Record<ConfiguredFigure, string>>): T {
  return fill(value, figures) as T;
}

function fill(value: unknown, figures: Readonly<Record<string, string>>): unknown {
  if (typeof value === 'string') {
    return value.replace(PLACEHOLDER, (placeholder, name: string) => {
      if (!Object.hasOwn(figures, name)) throw new Error(`no configured figure for the placeholder ${placeholder}`);
      return figures[name]!;
    });
  }
  if (Array.isArray(value)) return value.map((item) => fill(item, figures));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fill(item, figures)]));
  return value;
}
