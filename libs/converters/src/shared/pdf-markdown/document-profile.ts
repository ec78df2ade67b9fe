import { pageRows, spansText } from './page-lines.js';
import type { PdfPage } from './pdf-page.js';
import { runningKey } from './running-lines.js';

/** What the whole document says about its own layout, learnt in a first pass over its pages. */
export interface DocumentProfile {
  /** The font size most characters have. */
  bodySize: number;
  /** Heading level (1…3) of each font size clearly larger than the body's. */
  headingLevels: ReadonlyMap<number, number>;
  /** The usual distance from one line's top to the next's, for each font size. */
  lineStep(fontSize: number): number;
  /** Header and footer rows (see runningKey) repeated on most pages, and page numbers alone in a margin. */
  isRunning(key: string | undefined): boolean;
}

/** A size this much larger than the body's is a heading's. */
const HEADING_RATIO = 1.12;
const MAX_HEADING_LEVELS = 3;
const MAX_STEP_SAMPLES = 5000;
/** A margin row that is a page number alone ("7", "- 7 -", "Page 7 of 9", "vii"): dropped even where few pages have one. */
const PAGE_NUMBER_KEY = /^(?:top|bottom):\d+:(?:page )?[-–([]? ?# ?(?:(?:of|\/) ?#)? ?[-–)\]]?$/;

/** Pure: fed every page in order, then asked for the profile. */
export class DocumentProfiler {
  private readonly charsBySize = new Map<number, number>();
  private readonly stepsBySize = new Map<number, number[]>();
  private readonly pagesByKey = new Map<string, number>();
  private pages = 0;

  add(page: PdfPage): void {
    this.pages++;
    const rows = pageRows(page);
    const keys = new Set<string>();
    rows.forEach((row, index) => {
      for (const segment of row) {
        const chars = spansText(segment.spans).replace(/\s/g, '').length;
        this.charsBySize.set(segment.fontSize, (this.charsBySize.get(segment.fontSize) ?? 0) + chars);
      }
      const key = runningKey(row, page.height);
      if (key) keys.add(key);
      const previous = rows[index - 1];
      // Steps between rows of one size: how far apart a paragraph's lines are.
      if (previous && row.length === 1 && previous.length === 1 && previous[0]!.fontSize === row[0]!.fontSize) {
        const size = row[0]!.fontSize;
        const step = row[0]!.top - previous[0]!.top;
        const steps = this.stepsBySize.get(size) ?? [];
        if (step > 0 && step < size * 3 && steps.length < MAX_STEP_SAMPLES) steps.push(step);
        this.stepsBySize.set(size, steps);
      }
    });
    for (const key of keys) this.pagesByKey.set(key, (this.pagesByKey.get(key) ?? 0) + 1);
  }

  profile(): DocumentProfile {
    const bySize = [...this.charsBySize.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
    const [bodySize = 12, bodyChars = 0] = bySize[0] ?? [];
    // Larger sizes ranked: the largest is #. A size that holds as much text as the body is no heading's.
    const headingSizes = bySize
      .filter(([size, chars]) => size >= bodySize * HEADING_RATIO && chars < bodyChars)
      .map(([size]) => size)
      .sort((a, b) => b - a);
    const headingLevels = new Map(headingSizes.map((size, rank) => [size, Math.min(rank + 1, MAX_HEADING_LEVELS)]));
    // The lower quartile: a document of many one-line paragraphs has more paragraph gaps than line steps.
    const steps = new Map([...this.stepsBySize.entries()].filter(([, list]) => list.length > 0).map(([size, list]) => [size, lowerQuartile(list)]));
    // Running lines: on at least half the pages, and on two at least (one page alone tells nothing).
    const running = new Set([...this.pagesByKey.entries()].filter(([, pages]) => pages >= 2 && pages >= this.pages / 2).map(([key]) => key));
    return {
      bodySize,
      headingLevels,
      lineStep: (fontSize) => steps.get(fontSize) ?? fontSize * 1.2,
      isRunning: (key) => key !== undefined && (running.has(key) || (this.pages >= 2 && PAGE_NUMBER_KEY.test(key))),
    };
  }
}

function lowerQuartile(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 4)]!;
}
