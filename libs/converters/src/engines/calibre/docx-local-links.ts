import { ConversionError } from '../../platform/conversion-error.js';
import type { EngineLimits } from '../../platform/engine-descriptor.js';
import { parseXml, type XmlElement } from '../../shared/xml/office-xml-tree.js';
import { PackageError, readZipEntries } from '../../shared/zip-entries.js';
import { decodeXmlReferences } from '../../shared/xml/xml-references.js';
import { replaceZipEntries } from '../../shared/zip-rewrite.js';

/** A relationship part's own text: what rels parts a package may hold, and what they may weigh together. */
const RELS_PART = /(^|\/)_rels\/[^/]*\.rels$/;
const MAX_RELS_BYTES = 16 * 1024 * 1024;
const RELATIONSHIP = /<(?:[\w.-]+:)?Relationship\b((?:\s+[\w.:-]+\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(?:\/>|>[\s\S]*?<\/(?:[\w.-]+:)?Relationship\s*>)/g;
const ATTRIBUTE = /([\w.:-]+)\s*=\s*(?:"([^"<]*)"|'([^'<]*)')/g;

/**
 * Pure: whether a relationship points at a file outside the package by a `file:` URL. calibre's DOCX reader
 * reads such a target from the file system as a picture (calibre/ebooks/docx/images.py, read_image_data) when
 * any picture of the document names its id — by `r:link`, `r:embed` or VML, whatever the relationship's type.
 * Matched loosely (any case, surrounding spaces): calibre's own test is narrower.
 */
export function namesLocalFile(attributes: Readonly<Record<string, string>>): boolean {
  return (attributes.TargetMode ?? '').trim().toLowerCase() === 'external' && /^\s*file:/i.test(attributes.Target ?? '');
}

/**
 * A DOCX as calibre may read it: undefined when no relationship names a local file (the package goes as it is),
 * else a copy whose relationship parts no longer hold those relationships. Linked pictures are then left out, as
 * every engine leaves out what it cannot embed, and hyperlinks to local files become plain text; nothing else of
 * the package changes. A relationship part that cannot be read safely is refused.
 */
export function withoutLocalFileLinks(docx: Buffer, limits: Pick<EngineLimits, 'maxEntries'>): Buffer | undefined {
  let parts: Map<string, Buffer>;
  try {
    parts = readZipEntries(docx, (name) => RELS_PART.test(name), { maxEntries: limits.maxEntries ?? 10_000, maxInflatedBytes: MAX_RELS_BYTES });
  } catch (error) {
    if (error instanceof PackageError) throw new ConversionError('unsupported_or_corrupt_input', `The input is not a readable package: ${error.message}.`);
    throw error;
  }
  const replacements = new Map<string, Buffer>();
  for (const [name, content] of parts) {
    const xml = content.toString('utf8');
    if (!localFileLinks(parseRelationships(xml)).length) continue;
    const cleaned = xml.replace(RELATIONSHIP, (element, attributeText: string) => (namesLocalFile(attributesOf(attributeText)) ? '' : element));
    // What the strict reader finds in the result is what calibre's would: none may be left.
    if (localFileLinks(parseRelationships(cleaned)).length) throw new ConversionError('security_rejected', 'The document links to local files in a way that cannot be removed.');
    replacements.set(name, Buffer.from(cleaned, 'utf8'));
  }
  if (replacements.size === 0) return undefined;
  try {
    return replaceZipEntries(docx, replacements);
  } catch (error) {
    if (error instanceof PackageError) throw new ConversionError('unsupported_or_corrupt_input', `The input is not a readable package: ${error.message}.`);
    throw error;
  }
}

function parseRelationships(xml: string): XmlElement {
  try {
    return parseXml(xml);
  } catch (error) {
    if (error instanceof PackageError) throw new ConversionError('unsupported_or_corrupt_input', `The input is not a readable package: ${error.message}.`);
    throw error;
  }
}

/** Every relationship element (any prefix, as calibre matches by local name) that names a local file. */
function localFileLinks(root: XmlElement): XmlElement[] {
  const relationships = [root, ...descendants(root)].filter((element) => element.name.replace(/^[\w.-]+:/, '') === 'Relationship');
  return relationships.filter((element) => namesLocalFile(element.attributes));
}

function descendants(element: XmlElement): XmlElement[] {
  return element.children.flatMap((child) => (typeof child === 'string' ? [] : [child, ...descendants(child)]));
}

function attributesOf(text: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const [, key, double, single] of text.matchAll(ATTRIBUTE)) {
    try {
      attributes[key!] = decodeXmlReferences(double ?? single ?? '');
    } catch {
      attributes[key!] = '';
    }
  }
  return attributes;
}
