import { TARGET_FORMATS, type TargetFormat } from './generated/target-formats.js';

const KNOWN: ReadonlySet<string> = new Set(TARGET_FORMATS);

/** Narrows a string from outside the program (an argument, a form) to a TargetFormat, e.g. before convertFile. */
export function isTargetFormat(value: string): value is TargetFormat {
  return KNOWN.has(value.toLowerCase());
}
