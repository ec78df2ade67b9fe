import { decodeXmlReferences } from './xml-references.js';
import { XmlSyntaxError } from './xml-syntax-error.js';

/** An element: its qualified name (prefix kept, e.g. "a:p"), attributes and children (text as strings). */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: Array<XmlElement | string>;
}

const NAME = '[A-Za-z_:][\\w.:-]*';
const START_TAG = new RegExp(`<(${NAME})((?:\\s+${NAME}\\s*=\\s*(?:"[^"<]*"|'[^'<]*'))*)\\s*(/?)>`, 'y');
const ATTRIBUTE = new RegExp(`(${NAME})\\s*=\\s*(?:"([^"<]*)"|'([^'<]*)')`, 'g');
const END_TAG = new RegExp(`</(${NAME})\\s*>`, 'y');

/** The markup at `at` for a message: up to its `>`, at most 40 characters. */
const markupAt = (xml: string, at: number) => {
  const end = xml.indexOf('>', at);
  return xml.slice(at, end < 0 ? undefined : end + 1).slice(0, 40);
};

function startTag(xml: string, at: number): { element: XmlElement; selfClosing: boolean; end: number } {
  START_TAG.lastIndex = at;
  const match = START_TAG.exec(xml);
  if (!match) throw new XmlSyntaxError('malformed-markup', `${markupAt(xml, at)} is not an XML element`);
  const [whole, name, attributeText, slash] = match as unknown as [string, string, string, string];
  const attributes: Record<string, string> = {};
  for (const [, key, double, single] of attributeText.matchAll(ATTRIBUTE)) {
    if (Object.hasOwn(attributes, key!)) throw new XmlSyntaxError('malformed-markup', `<${name}> repeats the attribute ${key}`);
    attributes[key!] = decodeXmlReferences(double ?? single ?? '');
  }
  return { element: { name, attributes, children: [] }, selfClosing: slash === '/', end: at + whole.length };
}

/** Just past the first `close` from `at`, where a comment, PI or CDATA section ends; one never closed is refused. */
function skipPast(xml: string, at: number, close: string, what: string): number {
  const end = xml.indexOf(close, at);
  if (end < 0) throw new XmlSyntaxError('malformed-markup', `${what} is never closed`);
  return end + close.length;
}

/**
 * Pure: a small, strict XML reader — text to an element tree. Never a DOCTYPE (refused, so no entity is ever
 * declared or expanded), only the five XML entities and character references (see `decodeXmlReferences`).
 * Comments and processing instructions are dropped; CDATA is kept as text, undecoded; adjacent text is joined
 * into one string. One root element, with nothing but whitespace, comments and processing instructions around
 * it (a leading byte-order mark is ignored). Element and attribute names are ASCII XML names. Reads well-formed
 * XML; it is not a validator (no namespaces resolved, no attribute-value normalization).
 * @throws XmlSyntaxError naming the first problem met, in document order.
 */
export function parseXmlTree(xml: string): XmlElement {
  const open: XmlElement[] = [];
  let root: XmlElement | undefined;
  const addText = (text: string) => {
    const parent = open.at(-1);
    if (!parent) {
      if (text.trim()) throw new XmlSyntaxError('text-outside-root', 'text outside the root element');
      return;
    }
    const last = parent.children.at(-1);
    if (typeof last === 'string') parent.children[parent.children.length - 1] = last + text;
    else if (text) parent.children.push(text);
  };
  let at = xml.startsWith('\uFEFF') ? 1 : 0;
  while (at < xml.length) {
    if (xml[at] !== '<') {
      const next = xml.indexOf('<', at);
      const end = next < 0 ? xml.length : next;
      addText(decodeXmlReferences(xml.slice(at, end)));
      at = end;
    } else if (xml.startsWith('<!--', at)) at = skipPast(xml, at + 4, '-->', 'a comment');
    else if (xml.startsWith('<?', at)) at = skipPast(xml, at + 2, '?>', 'a processing instruction');
    else if (xml.startsWith('<![CDATA[', at)) {
      const end = skipPast(xml, at + 9, ']]>', 'a CDATA section');
      addText(xml.slice(at + 9, end - 3));
      at = end;
    } else if (/^<!DOCTYPE/i.test(xml.slice(at, at + 9))) throw new XmlSyntaxError('doctype', 'a DOCTYPE (entity declarations) is not accepted');
    else if (xml.startsWith('</', at)) {
      END_TAG.lastIndex = at;
      const match = END_TAG.exec(xml);
      if (!match) throw new XmlSyntaxError('malformed-markup', `${markupAt(xml, at)} is not an XML end tag`);
      if (open.at(-1)?.name !== match[1]) throw new XmlSyntaxError('mismatched-end-tag', `</${match[1]}> closes nothing open`);
      open.pop();
      at += match[0].length;
    } else {
      const { element, selfClosing, end } = startTag(xml, at);
      const parent = open.at(-1);
      if (parent) parent.children.push(element);
      else if (root) throw new XmlSyntaxError('more-than-one-root', 'more than one root element');
      else root = element;
      if (!selfClosing) open.push(element);
      at = end;
    }
  }
  if (open.length > 0) throw new XmlSyntaxError('unclosed-element', `<${open.at(-1)!.name}> is never closed`);
  if (!root) throw new XmlSyntaxError('no-root-element', 'there is no root element');
  return root;
}
