/** What made a text not (acceptable) XML; callers map it onto their own domain errors. */
export type XmlSyntaxErrorCode =
  /** A DOCTYPE: refused always, so no entity is ever declared or expanded. */
  | 'doctype'
  /** `&name;` where name is not one of the five entities XML defines. */
  | 'unknown-entity'
  /** A character reference to a code point XML does not allow (`&#0;`, a surrogate, past U+10FFFF). */
  | 'bad-character-reference'
  /** A tag, comment, CDATA section or processing instruction that is not well formed. */
  | 'malformed-markup'
  /** An end tag that does not close the innermost open element. */
  | 'mismatched-end-tag'
  /** An element still open at the end of the text. */
  | 'unclosed-element'
  | 'no-root-element'
  | 'more-than-one-root'
  | 'text-outside-root';

export class XmlSyntaxError extends Error {
  constructor(
    readonly code: XmlSyntaxErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'XmlSyntaxError';
  }
}
