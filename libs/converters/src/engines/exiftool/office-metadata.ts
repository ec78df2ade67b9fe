import { ConversionError } from '../../platform/conversion-error.js';
import type { EngineLimits } from '../../platform/engine-descriptor.js';
import { parseXml, type XmlElement } from '../../shared/xml/office-xml-tree.js';
import { decodeXmlReferences } from '../../shared/xml/xml-references.js';
import { PackageError, packageFailure, readZipEntries } from '../../shared/zip-entries.js';
import { replaceZipEntries } from '../../shared/zip-rewrite.js';

/** What names a comment's or a change's author once the real names are gone (Word's Document Inspector writes it too). */
export const PLACEHOLDER_AUTHOR = 'Author';
const PLACEHOLDER_INITIALS = 'A';

/** A package's own metadata and its pictures' (EXIF and the like), taken apart for cleaning. */
export interface OfficeMetadataOutcome {
  /** The package without its metadata parts' contents, authors' names and dates; the input's bytes when it had none. */
  package: Buffer;
  /** What was removed, in words safe to show. */
  notes: string[];
  /** The package's pictures exiftool cleans (JPEG, PNG, TIFF, GIF, WebP), by entry name: see `withPictures`. */
  pictures: Map<string, Buffer>;
}

const OOXML = new Set(['docx', 'xlsx', 'pptx']);
const ODF = new Set(['odt', 'ods', 'odp']);
/** A compound file (an encrypted OOXML document is one, not a ZIP). */
const COMPOUND_FILE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

const PICTURE = /\.(?:jpe?g|png|tiff?|gif|webp)$/i;
/** Where the suites keep a document's pictures (the thumbnail of the first page is the document's content, not metadata). */
const OOXML_PICTURE = /^(?:word|xl|ppt)\/media\/[^/]+$/;
const ODF_PICTURE = /^Pictures\/[^/]+$/;
/** The parts where comments, tracked changes and their people name their authors. */
const AUTHOR_PARTS: Record<string, RegExp> = {
  docx: /^word\/[^/]+\.xml$/,
  xlsx: /^xl\/(?:comments[^/]*\.xml|persons\/[^/]+\.xml|workbook\.xml)$/,
  pptx: /^ppt\/(?:commentAuthors|authors)\.xml$/,
};
const ODF_AUTHOR_PARTS = new Set(['content.xml', 'styles.xml']);

const RELATIONSHIPS = '_rels/.rels';
const PROPERTY_TYPES = {
  core: /\/metadata\/core-properties$/,
  app: /\/extended-properties$/,
  custom: /\/custom-properties$/,
} as const;

/** What each property is called in a note. */
const CORE_WORDS: Record<string, string> = {
  creator: 'the author',
  lastModifiedBy: 'the last modifier',
  created: 'the creation date',
  modified: 'the modification date',
  lastPrinted: 'the last printing date',
  revision: 'the revision number',
  version: 'the version',
  title: 'the title',
  subject: 'the subject',
  description: 'the description',
  keywords: 'the keywords',
  category: 'the category',
  contentStatus: 'the status',
  identifier: 'the identifier',
  language: 'the language',
};
/** Extended properties that say who or what made the document; its statistics and titles of parts stay. */
const APP_WORDS: Record<string, string> = {
  Company: 'the company',
  Manager: 'the manager',
  Application: 'the application',
  AppVersion: 'the application version',
  TotalTime: 'the editing time',
  Template: 'the template',
};
const ODF_META_WORDS: Record<string, string> = {
  'meta:initial-creator': 'the author',
  'dc:creator': 'the last modifier',
  'meta:printed-by': 'who printed it last',
  'meta:creation-date': 'the creation date',
  'dc:date': 'the modification date',
  'meta:print-date': 'the last printing date',
  'meta:generator': 'the application',
  'meta:editing-cycles': 'the revision number',
  'meta:editing-duration': 'the editing time',
  'meta:template': 'the template',
  'meta:user-defined': 'the custom properties',
  'dc:title': 'the title',
  'dc:description': 'the description',
  'dc:subject': 'the subject',
  'meta:keyword': 'the keywords',
  'dc:language': 'the language',
};
/** What meta.xml keeps: counts of pages and words, and how the document reloads and opens links. */
const ODF_META_KEPT = new Set(['meta:document-statistic', 'meta:auto-reload', 'meta:hyperlink-behaviour']);

const NAME = '[A-Za-z_][\\w.-]*(?::[A-Za-z_][\\w.-]*)?';
const ATTRIBUTES = `(?:\\s+${NAME}\\s*=\\s*(?:"[^"<]*"|'[^'<]*'))*`;
const START_TAG = new RegExp(`<(${NAME})(${ATTRIBUTES})\\s*(/?)>`, 'g');
const ATTRIBUTE = new RegExp(`(\\s+)(${NAME})(\\s*=\\s*)(?:"([^"<]*)"|'([^'<]*)')`, 'g');
const localName = (name: string) => name.slice(name.indexOf(':') + 1);

/**
 * Pure: an OOXML or ODF package without its metadata — OOXML's core, extended (who and what made it) and custom
 * properties, ODF's meta.xml but its statistics — with its comments' and tracked changes' authors renamed "Author"
 * (in OOXML their dates dropped too), and its pictures handed out for exiftool. Only the parts that change are rewritten; every other
 * entry is copied byte for byte. A package that cannot be read safely is refused.
 */
export function stripOfficeMetadata(zip: Buffer, format: string, limits: Pick<EngineLimits, 'maxEntries' | 'maxExpandedBytes'>): OfficeMetadataOutcome {
  if (zip.subarray(0, COMPOUND_FILE.length).equals(COMPOUND_FILE)) throw new ConversionError('security_rejected', 'The document is password-protected: remove the password and upload it again.');
  const zipLimits = { maxEntries: limits.maxEntries ?? 10_000, maxInflatedBytes: limits.maxExpandedBytes ?? 256 * 1024 * 1024 };
  try {
    const stripped = OOXML.has(format) ? stripOoxml(zip, format, zipLimits) : ODF.has(format) ? stripOdf(zip, zipLimits) : undefined;
    if (!stripped) throw new ConversionError('unsupported_output_format', `This engine does not remove the metadata of ${format} documents.`);
    const { replacements, removed, authors, pictures } = stripped;
    const notes = [
      ...(removed.length > 0 ? [`removed ${[...new Set(removed)].join(', ')}`] : []),
      ...(authors.size > 0 ? [`replaced ${authors.size} ${authors.size === 1 ? 'name' : 'names'} of comment or change authors with "${PLACEHOLDER_AUTHOR}"`] : []),
    ];
    return { package: replacements.size > 0 ? replaceZipEntries(zip, replacements) : zip, notes, pictures };
  } catch (error) {
    if (error instanceof PackageError) throw new ConversionError(packageFailure(error), `The document is not a readable package: ${error.message}.`);
    throw error;
  }
}

/** Pure: the package with its pictures replaced by their cleaned copies (entry name → bytes). */
export function withPictures(zip: Buffer, pictures: ReadonlyMap<string, Buffer>): Buffer {
  try {
    return pictures.size > 0 ? replaceZipEntries(zip, pictures) : zip;
  } catch (error) {
    if (error instanceof PackageError) throw new ConversionError(packageFailure(error), `The document is not a readable package: ${error.message}.`);
    throw error;
  }
}

interface Stripped {
  replacements: Map<string, Buffer>;
  removed: string[];
  /** The names replaced by the placeholder. */
  authors: Set<string>;
  pictures: Map<string, Buffer>;
}

type ZipLimits = Parameters<typeof readZipEntries>[2];

function stripOoxml(zip: Buffer, format: string, limits: ZipLimits): Stripped {
  // The package's relationships say where its properties are (docProps/… by convention only).
  const rels = readZipEntries(zip, (name) => name === RELATIONSHIPS, limits).get(RELATIONSHIPS);
  if (!rels) throw new PackageError('it has no package relationships (_rels/.rels)');
  const targets = propertyParts(parseXml(rels.toString('utf8')));
  const authorParts = AUTHOR_PARTS[format]!;
  const propertyNames = new Set(Object.values(targets));
  const parts = readZipEntries(zip, (name) => propertyNames.has(name) || authorParts.test(name) || (OOXML_PICTURE.test(name) && PICTURE.test(name)), limits);

  const result: Stripped = { replacements: new Map(), removed: [], authors: new Set(), pictures: new Map() };
  const core = targets.core && parts.get(targets.core);
  if (core) {
    const { text, removed } = emptied(core.toString('utf8'), (child) => CORE_WORDS[localName(child.name)] ?? `the ${localName(child.name)}`);
    if (removed.length > 0) result.replacements.set(targets.core!, Buffer.from(text, 'utf8'));
    result.removed.push(...removed);
  }
  const app = targets.app && parts.get(targets.app);
  if (app) {
    const { text, removed } = withoutChildren(app.toString('utf8'), (child) => APP_WORDS[localName(child.name)]);
    if (removed.length > 0) result.replacements.set(targets.app!, Buffer.from(text, 'utf8'));
    result.removed.push(...removed);
  }
  const custom = targets.custom && parts.get(targets.custom);
  if (custom) {
    const { text, removed } = emptied(custom.toString('utf8'), () => 'the custom properties');
    if (removed.length > 0) result.replacements.set(targets.custom!, Buffer.from(text, 'utf8'));
    result.removed.push(...removed);
  }
  for (const [name, content] of parts) {
    if (OOXML_PICTURE.test(name) && PICTURE.test(name)) {
      result.pictures.set(name, content);
      continue;
    }
    if (!authorParts.test(name) || propertyNames.has(name)) continue;
    const xml = content.toString('utf8');
    const renamed = withoutAuthorNames(xml, result.authors);
    if (renamed !== xml) result.replacements.set(name, Buffer.from(renamed, 'utf8'));
  }
  return result;
}

function stripOdf(zip: Buffer, limits: ZipLimits): Stripped {
  const manifest = readZipEntries(zip, (name) => name === 'META-INF/manifest.xml', limits).get('META-INF/manifest.xml');
  if (!manifest) throw new PackageError('it has no manifest (META-INF/manifest.xml)');
  // An encrypted ODF package keeps its parts' names but not their text: nothing in it can be rewritten.
  if (/encryption-data\b/.test(manifest.toString('utf8'))) throw new ConversionError('security_rejected', 'The document is password-protected: remove the password and upload it again.');
  const parts = readZipEntries(zip, (name) => name === 'meta.xml' || name === 'settings.xml' || ODF_AUTHOR_PARTS.has(name) || (ODF_PICTURE.test(name) && PICTURE.test(name)), limits);

  const result: Stripped = { replacements: new Map(), removed: [], authors: new Set(), pictures: new Map() };
  const meta = parts.get('meta.xml');
  if (meta) {
    const { text, removed } = withoutOdfMeta(meta.toString('utf8'));
    if (removed.length > 0) result.replacements.set('meta.xml', Buffer.from(text, 'utf8'));
    result.removed.push(...removed);
  }
  const settings = parts.get('settings.xml');
  if (settings) {
    const xml = settings.toString('utf8');
    const cleaned = withoutPrinter(xml);
    if (cleaned !== xml) {
      result.replacements.set('settings.xml', Buffer.from(cleaned, 'utf8'));
      result.removed.push('the printer name');
    }
  }
  for (const [name, content] of parts) {
    if (ODF_PICTURE.test(name) && PICTURE.test(name)) result.pictures.set(name, content);
    if (!ODF_AUTHOR_PARTS.has(name)) continue;
    const xml = content.toString('utf8');
    const renamed = withoutOdfAuthorNames(xml, result.authors);
    if (renamed !== xml) result.replacements.set(name, Buffer.from(renamed, 'utf8'));
  }
  return result;
}

/** The package-level relationships' targets of the three property parts, as entry names. */
function propertyParts(rels: XmlElement): Partial<Record<keyof typeof PROPERTY_TYPES, string>> {
  const found: Partial<Record<keyof typeof PROPERTY_TYPES, string>> = {};
  for (const child of rels.children) {
    if (typeof child === 'string' || localName(child.name) !== 'Relationship' || /^external$/i.test(child.attributes['TargetMode'] ?? '')) continue;
    const type = child.attributes['Type'] ?? '';
    const target = (child.attributes['Target'] ?? '').replace(/^\/+/, '');
    for (const [kind, pattern] of Object.entries(PROPERTY_TYPES) as Array<[keyof typeof PROPERTY_TYPES, RegExp]>) if (pattern.test(type) && target) found[kind] ??= target;
  }
  return found;
}

/** The root element's start tag as written (its namespace declarations), and the root as read. */
function rootOf(xml: string): { root: XmlElement; startTag: string; selfClosing: boolean } {
  const root = parseXml(xml);
  START_TAG.lastIndex = 0;
  for (const match of xml.matchAll(START_TAG)) {
    if (match[1] === root.name) return { root, startTag: `<${match[1]}${match[2]}>`, selfClosing: match[3] === '/' };
  }
  throw new PackageError('a metadata part is not well-formed XML');
}

const elements = (element: XmlElement) => element.children.filter((child): child is XmlElement => typeof child !== 'string');

/** A property part with no properties left: its root element, empty; what each removed child was. */
function emptied(xml: string, word: (child: XmlElement) => string): { text: string; removed: string[] } {
  const { root, startTag } = rootOf(xml);
  const children = elements(root);
  if (children.length === 0) return { text: xml, removed: [] };
  const text = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${startTag}</${root.name}>`;
  if (elements(parseXml(text)).length > 0) throw new PackageError('a metadata part could not be rewritten');
  return { text, removed: children.map(word) };
}

/** A part without the root's children that `word` names (simple text elements, as property parts hold them). */
function withoutChildren(xml: string, word: (child: XmlElement) => string | undefined): { text: string; removed: string[] } {
  const { root } = rootOf(xml);
  const unwanted = elements(root).filter((child) => word(child) !== undefined);
  let text = xml;
  for (const name of new Set(unwanted.map((child) => child.name))) text = text.replace(elementPattern(name), '');
  if (elements(parseXml(text)).some((child) => word(child) !== undefined)) throw new PackageError('a metadata part could not be rewritten');
  return { text, removed: unwanted.map((child) => word(child)!) };
}

/** meta.xml's office:meta with only what ODF_META_KEPT names. */
function withoutOdfMeta(xml: string): { text: string; removed: string[] } {
  const { root } = rootOf(xml);
  const meta = elements(root).find((child) => child.name === 'office:meta');
  if (!meta) return { text: xml, removed: [] };
  const unwanted = elements(meta).filter((child) => !ODF_META_KEPT.has(child.name));
  let text = xml;
  for (const name of new Set(unwanted.map((child) => child.name))) text = text.replace(elementPattern(name), '');
  const left = elements(parseXml(text)).find((child) => child.name === 'office:meta');
  if (left && elements(left).some((child) => !ODF_META_KEPT.has(child.name))) throw new PackageError('a metadata part could not be rewritten');
  return { text, removed: unwanted.map((child) => ODF_META_WORDS[child.name] ?? 'the custom properties') };
}

/** Every element of this qualified name, empty or not (property elements hold text or nothing, never themselves). */
const elementPattern = (name: string) => {
  const escaped = name.replace(/[.-]/g, '\\$&');
  return new RegExp(`<${escaped}${ATTRIBUTES}\\s*(?:/>|>[\\s\\S]*?</${escaped}\\s*>)`, 'g');
};

/**
 * Start tags of an OOXML part with their people's names replaced: `author` (comments, tracked changes, people),
 * `initials`, the `name` of a presentation's comment author, the `displayName` of a workbook's person, the
 * `userId` and `providerId` that name their accounts, a workbook's absolute path and the user who shared it. The
 * dates of comments and changes (`date` beside an author) go. The names replaced are added to `authors`.
 */
function withoutAuthorNames(xml: string, authors: Set<string>): string {
  let text = xml.replace(START_TAG, (tag, name: string, attributeText: string, slash: string) => {
    const element = localName(name);
    if (!/\b(?:author|initials|name|displayName|userId|providerId|url|userName)\s*=/.test(attributeText)) return tag;
    const hasAuthor = [...attributeText.matchAll(ATTRIBUTE)].some((match) => localName(match[2]!) === 'author');
    const rewritten = attributeText.replace(ATTRIBUTE, (attribute, space: string, key: string, equals: string, double?: string, single?: string) => {
      const value = decodeXmlReferences(double ?? single ?? '');
      const replace = (placeholder: string) => {
        if (value !== placeholder && value !== '') authors.add(value);
        return `${space}${key}${equals}"${placeholder}"`;
      };
      const attributeName = localName(key);
      if (attributeName === 'author') return replace(PLACEHOLDER_AUTHOR);
      if (attributeName === 'initials') return value ? `${space}${key}${equals}"${PLACEHOLDER_INITIALS}"` : attribute;
      if (attributeName === 'name' && (element === 'cmAuthor' || element === 'author')) return replace(PLACEHOLDER_AUTHOR);
      if (attributeName === 'displayName' && element === 'person') return replace(PLACEHOLDER_AUTHOR);
      if (attributeName === 'userId' || attributeName === 'providerId') return `${space}${key}${equals}""`;
      if ((attributeName === 'url' && element === 'absPath') || (attributeName === 'userName' && element === 'fileSharing')) return `${space}${key}${equals}""`;
      if (attributeName === 'date' && hasAuthor) return '';
      return attribute;
    });
    return `<${name}${rewritten}${slash ? '/' : ''}>`;
  });
  // A workbook's comments name their authors as text: <authors><author>Jane</author></authors>.
  text = text.replace(textElementPattern('author'), (_whole, open: string, value: string, close: string) => {
    if (decodeXmlReferences(value) !== PLACEHOLDER_AUTHOR && value.trim()) authors.add(decodeXmlReferences(value));
    return `${open}${PLACEHOLDER_AUTHOR}${close}`;
  });
  return text;
}

/**
 * An ODF part's annotations and tracked changes with their authors renamed "Author". Their dates stay: a tracked
 * change's `dc:date` is required by the schema.
 */
function withoutOdfAuthorNames(xml: string, authors: Set<string>): string {
  return xml
    .replace(textElementPattern('dc:creator'), (_whole, open: string, value: string, close: string) => {
      if (decodeXmlReferences(value) !== PLACEHOLDER_AUTHOR && value.trim()) authors.add(decodeXmlReferences(value));
      return `${open}${PLACEHOLDER_AUTHOR}${close}`;
    })
    .replace(textElementPattern('meta:creator-initials'), (_whole, open: string, _value: string, close: string) => `${open}${PLACEHOLDER_INITIALS}${close}`);
}

/** An element holding only text, any prefix (`author`) or this one (`dc:creator`): its start tag, its text, its end tag. */
const textElementPattern = (name: string) => {
  const escaped = name.includes(':') ? name.replace(/[.-]/g, '\\$&') : `(?:[A-Za-z_][\\w.-]*:)?${name}`;
  return new RegExp(`(<${escaped}${ATTRIBUTES}\\s*>)([^<]*)(</${escaped}\\s*>)`, 'g');
};

/** settings.xml without the printer's name and set-up (LibreOffice keeps the last printer used). */
function withoutPrinter(xml: string): string {
  return xml.replace(
    new RegExp(`(<config:config-item(${ATTRIBUTES})\\s*>)[^<]*(</config:config-item\\s*>)`, 'g'),
    (whole, open: string, attributeText: string, close: string) => (/config:name\s*=\s*["'](?:PrinterName|PrinterSetup)["']/.test(attributeText) && whole !== `${open}${close}` ? `${open}${close}` : whole),
  );
}
