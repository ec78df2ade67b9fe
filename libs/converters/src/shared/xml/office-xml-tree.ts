import { XmlSyntaxError, type XmlSyntaxErrorCode } from './xml-syntax-error.js';
import { parseXmlTree, type XmlElement } from './xml-tree.js';
import { PackageError } from '../zip-entries.js';

export type { XmlElement };

const PACKAGE_ERRORS: Partial<Record<XmlSyntaxErrorCode, string>> = { doctype: 'a part declares a DOCTYPE', 'no-root-element': 'a part has no root element' };

/**
 * Pure: an XML part of an office package as an element tree, read by the shared strict reader (no DOCTYPE, so
 * no entity is ever expanded); its refusal becomes a PackageError about the part.
 */
export function parseXml(xml: string): XmlElement {
  try {
    return parseXmlTree(xml);
  } catch (error) {
    if (error instanceof XmlSyntaxError) throw new PackageError(PACKAGE_ERRORS[error.code] ?? 'a part is not well-formed XML');
    throw error;
  }
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
