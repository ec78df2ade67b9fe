/**
 * Word fields that read a file: LibreOffice's RTF reader (writerfilter) opens an INCLUDEPICTURE's path itself with a
 * plain file stream — not through the content broker the bridge guards — and draws the picture into the document.
 */
const FILE_FIELDS = new Set(['INCLUDEPICTURE', 'INCLUDETEXT', 'INCLUDE', 'IMPORT']);

const BACKSLASH = 0x5c;
const OPEN = 0x7b;
const CLOSE = 0x7d;
const SPACE = 0x20;
const isLetter = (byte: number) => (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a);
const isDigit = (byte: number) => byte >= 0x30 && byte <= 0x39;

interface Group {
  /** Where the group's `\fldinst` control word ends, when the group is a field instruction. */
  instructionStart?: number;
}

/**
 * Pure: a copy of an RTF document whose field instructions that name a file (INCLUDEPICTURE, INCLUDETEXT, INCLUDE,
 * IMPORT) are blanked — spaces over the whole `\fldinst` group, its nested groups included — or undefined when it
 * holds none. The field's result (a picture Word stored with it, its text) stays as the document shows it. The
 * field type is read as LibreOffice reads it: the first run of ASCII letters of the instruction's text, across
 * nested groups, with `\'hh` and `\uN` escapes decoded (`\ucN` fallbacks skipped) and `\bin` data stepped over.
 */
export function withoutFileFields(rtf: Buffer): Buffer | undefined {
  const spans: Array<[start: number, end: number]> = [];
  const groups: Group[] = [];
  let i = 0;
  while (i < rtf.length) {
    const byte = rtf[i]!;
    if (byte === OPEN) {
      groups.push({});
      i++;
    } else if (byte === CLOSE) {
      const group = groups.pop();
      if (group?.instructionStart !== undefined && namesAFile(rtf.subarray(group.instructionStart, i))) spans.push([group.instructionStart, i]);
      i++;
    } else if (byte === BACKSLASH) {
      const word = controlWord(rtf, i);
      if (word.name === 'fldinst' && groups.length > 0) groups.at(-1)!.instructionStart = word.end;
      i = word.name === 'bin' ? word.end + Math.max(0, word.parameter ?? 0) : word.end;
    } else {
      i++;
    }
  }
  if (spans.length === 0) return undefined;
  const copy = Buffer.from(rtf);
  for (const [start, end] of spans) copy.fill(SPACE, start, end);
  return copy;
}

/** A control word or symbol at `at` (a backslash): its name (letters, or the symbol), numeric parameter, and end. */
function controlWord(rtf: Buffer, at: number): { name: string; parameter?: number; end: number } {
  let i = at + 1;
  if (i >= rtf.length) return { name: '', end: i };
  if (!isLetter(rtf[i]!)) {
    // \'hh is a symbol with two hex digits; any other symbol is one character.
    if (rtf[i] === 0x27) return { name: "'", parameter: Number.parseInt(rtf.toString('latin1', i + 1, i + 3), 16), end: Math.min(rtf.length, i + 3) };
    return { name: String.fromCharCode(rtf[i]!), end: i + 1 };
  }
  const nameStart = i;
  while (i < rtf.length && isLetter(rtf[i]!)) i++;
  const name = rtf.toString('latin1', nameStart, i);
  const parameterStart = i;
  if (rtf[i] === 0x2d) i++;
  while (i < rtf.length && isDigit(rtf[i]!)) i++;
  const parameter = i > parameterStart && !(i === parameterStart + 1 && rtf[parameterStart] === 0x2d) ? Number.parseInt(rtf.toString('latin1', parameterStart, i), 10) : undefined;
  if (rtf[i] === SPACE) i++;
  return { name, ...(parameter !== undefined ? { parameter } : {}), end: i };
}

/** Whether an instruction's text (the bytes after `\fldinst`) starts with a field type that reads a file. */
function namesAFile(instruction: Buffer): boolean {
  const text = instructionText(instruction);
  const type = /^[^A-Za-z]*([A-Za-z]+)/.exec(text)?.[1];
  return type !== undefined && FILE_FIELDS.has(type.toUpperCase());
}

/**
 * The text of an instruction as a reader sees it: control words dropped, `\'hh` below 0x80 as that character (RTF's
 * code pages are ASCII-based; a byte above never makes an ASCII letter), `\uN` as its character with the next
 * `\ucN` (default 1) characters skipped, `\{ \} \\` as themselves. Group braces are dropped: text of nested groups joins.
 */
function instructionText(rtf: Buffer): string {
  let text = '';
  let fallback = 1;
  let skip = 0;
  const add = (character: string) => {
    if (skip > 0) skip--;
    else text += character;
  };
  for (let i = 0; i < rtf.length; ) {
    const byte = rtf[i]!;
    if (byte === OPEN || byte === CLOSE) {
      i++;
      continue;
    }
    if (byte !== BACKSLASH) {
      if (byte !== 0x0d && byte !== 0x0a) add(String.fromCharCode(byte));
      i++;
      continue;
    }
    const word = controlWord(rtf, i);
    i = word.name === 'bin' ? word.end + Math.max(0, word.parameter ?? 0) : word.end;
    if (word.name === "'") add(word.parameter !== undefined && word.parameter < 0x80 ? String.fromCharCode(word.parameter) : ' ');
    else if (word.name === 'u' && word.parameter !== undefined) {
      skip = 0;
      text += String.fromCharCode(word.parameter < 0 ? word.parameter + 0x10000 : word.parameter);
      skip = fallback;
    } else if (word.name === 'uc') fallback = Math.max(0, word.parameter ?? 1);
    else if (word.name === '{' || word.name === '}' || word.name === '\\') add(word.name);
  }
  return text;
}
