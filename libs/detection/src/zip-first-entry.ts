import { ascii, uint16le } from './bytes.js';
import { inflatedStart } from './inflated-start.js';

const STORED = 0;
const DEFLATED = 8;

export interface ZipFirstEntry {
  name: string;
  /**
   * The start of the entry's content as Latin-1 text, inflated when deflated: producers that compress the
   * `mimetype` entry (against the EPUB and ODF rules) or put `META-INF/*.xml` or `[Content_Types].xml` first
   * still show who they are within a hundred bytes of inflated text. Inflated once, on first use.
   */
  text: () => string;
}

const latin1 = (bytes: Uint8Array) => ascii(bytes, 0, bytes.length);

/** The first local file header of a ZIP: its entry name and, on demand, the start of its content. */
export function zipFirstEntry(header: Uint8Array): ZipFirstEntry {
  const method = uint16le(header, 8);
  const nameLength = uint16le(header, 26);
  const dataStart = 30 + nameLength + uint16le(header, 28);
  const data = header.subarray(Math.min(dataStart, header.length));
  let text: string | undefined;
  return {
    name: ascii(header, 30, 30 + nameLength),
    text: () => (text ??= method === STORED ? latin1(data) : method === DEFLATED ? latin1(inflatedStart(data)) : ''),
  };
}
