/** A run of text of one style inside a line, as pdftohtml marks it. */
export interface TextSpan {
  text: string;
  bold: boolean;
  italic: boolean;
  /** An http(s) or mailto target; other link targets are dropped. */
  href?: string;
}

/** One `<text>` element of pdftohtml: a piece of a line in one font, positioned in pixels from the page's top left. */
export interface TextFragment {
  top: number;
  left: number;
  width: number;
  height: number;
  /** The font size in pixels (pdftohtml's zoom applied). */
  fontSize: number;
  spans: TextSpan[];
}

export interface PdfPage {
  number: number;
  width: number;
  height: number;
  fragments: TextFragment[];
}

export const fragmentText = (fragment: { spans: readonly TextSpan[] }) => fragment.spans.map((span) => span.text).join('');
