import { XmlSyntaxError } from './xml-syntax-error.js';

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const REFERENCE = /&(#x[0-9a-fA-F]+|#[0-9]+|[\w.:-]+);/g;

/** XML 1.0 `Char`: tab, line feed, carriage return and the code points outside the controls and surrogates. */
const isXmlChar = (codePoint: number) =>
  codePoint === 0x9 || codePoint === 0xa || codePoint === 0xd || (codePoint >= 0x20 && codePoint <= 0xd7ff) || (codePoint >= 0xe000 && codePoint <= 0xfffd) || (codePoint >= 0x10000 && codePoint <= 0x10ffff);

/**
 * Pure: text or an attribute value with its references replaced — the five entities XML defines and character
 * references. Any other entity is refused (there is never a DOCTYPE to declare one); an `&` that does not form
 * a reference at all (`AT&T`) is kept as written.
 */
export function decodeXmlReferences(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(REFERENCE, (whole, reference: string) => {
    if (reference.startsWith('#')) {
      const codePoint = reference.startsWith('#x') ? Number.parseInt(reference.slice(2), 16) : Number.parseInt(reference.slice(1), 10);
      if (!isXmlChar(codePoint)) throw new XmlSyntaxError('bad-character-reference', `${whole} is not a character XML allows`);
      return String.fromCodePoint(codePoint);
    }
    const known = PREDEFINED[reference];
    if (known === undefined) throw new XmlSyntaxError('unknown-entity', `the entity ${whole} is not one XML defines`);
    return known;
  });
}
