import { PackageError } from './zip-entries.js';

/** An element of a parsed XML part: its qualified name, attributes and children (text as strings). */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: Array<XmlElement | string>;
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const decode = (text: string) =>
  text.replace(/&(#x[0-9a-fA-F]+|#\d+|\w+);/g, (whole, entity: string) =>
    entity.startsWith('#x') ? String.fromCodePoint(Number.parseInt(entity.slice(2), 16)) : entity.startsWith('#') ? String.fromCodePoint(Number(entity.slice(1))) : (ENTITIES[entity] ?? whole),
  );

/**
 * Pure: a small, strict reader for the XML parts of an office package (no DOCTYPE, so no entity is ever
 * expanded; comments, processing instructions and CDATA handled). Enough for reading text, not a validator.
 */
export function parseXml(xml: string): XmlElement {
  if (/<!DOCTYPE/i.test(xml)) throw new PackageError('a part declares a DOCTYPE');
  const root: XmlElement = { name: '#document', attributes: {}, children: [] };
  const stack = [root];
  const tokens = xml.replace(/<\?[\s\S]*?\?>|<!--[\s\S]*?-->/g, '').match(/<!\[CDATA\[[\s\S]*?\]\]>|<[^>]*>|[^<]+/g) ?? [];
  for (const token of tokens) {
    const top = stack.at(-1)!;
    if (token.startsWith('<![CDATA[')) top.children.push(token.slice(9, -3));
    else if (token.startsWith('</')) {
      if (stack.length === 1 || stack.pop()!.name !== token.slice(2, -1).trim()) throw new PackageError('a part is not well-formed XML');
    } else if (token.startsWith('<')) {
      const match = /^<([\w:.-]+)([\s\S]*?)(\/?)>$/.exec(token);
      if (!match) throw new PackageError('a part is not well-formed XML');
      const attributes: Record<string, string> = {};
      for (const [, key, double, single] of match[2]!.matchAll(/([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) attributes[key!] = decode(double ?? single ?? '');
      const element: XmlElement = { name: match[1]!, attributes, children: [] };
      top.children.push(element);
      if (!match[3]) stack.push(element);
    } else top.children.push(decode(token));
  }
  if (stack.length !== 1) throw new PackageError('a part is not well-formed XML');
  const element = root.children.find((child): child is XmlElement => typeof child !== 'string');
  if (!element) throw new PackageError('a part has no root element');
  return element;
}

/** Every descendant element named `name` (e.g. "a:p"), in document order; not below a match. */
export function findAll(element: XmlElement, name: string): XmlElement[] {
  const found: XmlElement[] = [];
  const visit = (node: XmlElement) => {
    for (const child of node.children) {
      if (typeof child === 'string') continue;
      if (child.name === name) found.push(child);
      else visit(child);
    }
  };
  visit(element);
  return found;
}

export const first = (element: XmlElement, name: string): XmlElement | undefined => findAll(element, name)[0];

/** The text of every `a:t` (DrawingML text run) below `element`, joined. */
export const runText = (element: XmlElement): string =>
  findAll(element, 'a:t')
    .map((run) => run.children.filter((child): child is string => typeof child === 'string').join(''))
    .join('');
