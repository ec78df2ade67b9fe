import type { TextSpan } from './pdf-page.js';

/** What the layout analysis finds, and the Markdown writer writes. */
export type MarkdownBlock =
  | { kind: 'heading'; level: number; spans: TextSpan[] }
  | { kind: 'paragraph'; spans: TextSpan[] }
  /** `number` for an ordered item: its own number, or its place in the list for a. b. / i. ii. */
  | { kind: 'item'; depth: number; number?: number; spans: TextSpan[] }
  | { kind: 'table'; rows: TextSpan[][][] };
