/**
 * What the bytes alone say. `family` lists formats the bytes cannot tell apart (e.g. the OLE2
 * files doc/xls/ppt/msg): the extension then picks among them.
 */
export interface ContentGuess {
  format: string;
  confidence: number;
  reason: string;
  family?: readonly string[];
  /** Smallest plausible size of a whole file of this format. */
  minSize?: number;
}
