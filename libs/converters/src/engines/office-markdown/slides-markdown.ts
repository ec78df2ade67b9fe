import { findAll, first, parseXml, runText, type XmlElement } from '../../shared/xml/office-xml-tree.js';
import { PackageError } from '../../shared/zip-entries.js';

const TITLES = new Set(['title', 'ctrTitle']);

/** Markdown that reads as text: a line that would start a heading, list or quote is escaped. */
const escapeLine = (text: string) => text.replace(/^(\s*)([#>+*-]|\d+[.)])(\s)/, '$1\\$2$3');
const escapeCell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

/** The parts a presentation's slides are in, in show order, from presentation.xml and its relationships. */
function slideOrder(part: (name: string) => XmlElement | undefined): string[] {
  const presentation = part('ppt/presentation.xml');
  if (!presentation) throw new PackageError('it has no ppt/presentation.xml (not a PowerPoint presentation)');
  const targets = relationships(part, 'ppt/presentation.xml');
  return findAll(presentation, 'p:sldId')
    .map((slide) => targets.get(slide.attributes['r:id'] ?? ''))
    .filter((target): target is string => target !== undefined);
}

/** Relationship id → target part name (resolved against the part's folder). */
function relationships(part: (name: string) => XmlElement | undefined, of: string): Map<string, string> {
  const folder = of.slice(0, of.lastIndexOf('/') + 1);
  const rels = part(`${folder}_rels/${of.slice(folder.length)}.rels`);
  const map = new Map<string, string>();
  for (const rel of rels ? findAll(rels, 'Relationship') : []) {
    const target = rel.attributes.Target ?? '';
    const segments = (target.startsWith('/') ? target.slice(1) : folder + target).split('/');
    const resolved: string[] = [];
    for (const segment of segments) {
      if (segment === '..') resolved.pop();
      else resolved.push(segment);
    }
    map.set(rel.attributes.Id ?? '', resolved.join('/'));
  }
  return map;
}

/** A paragraph's own bullet setting wins over its shape's default (body placeholders are bulleted). */
function hasBullet(properties: XmlElement | undefined, byDefault: boolean): boolean {
  if (properties && first(properties, 'a:buNone')) return false;
  if (properties && (first(properties, 'a:buChar') || first(properties, 'a:buAutoNum'))) return true;
  return byDefault;
}

/** A shape's text as Markdown lines: bullets (with their level) in body placeholders or where a bullet is set. */
function textLines(shape: XmlElement, bulleted: boolean): string[] {
  const lines: string[] = [];
  let inList = false;
  for (const paragraph of findAll(shape, 'a:p')) {
    const text = runText(paragraph).trim();
    if (!text) continue;
    const properties = first(paragraph, 'a:pPr');
    const bullet = hasBullet(properties, bulleted);
    // A blank line where a list starts or ends: a plain line after a bullet would continue the bullet.
    if (lines.length > 0 && bullet !== inList) lines.push('');
    inList = bullet;
    lines.push(bullet ? `${'  '.repeat(Number(properties?.attributes.lvl ?? 0))}- ${text}` : escapeLine(text));
  }
  return lines;
}

function table(frame: XmlElement): string | undefined {
  const grid = first(frame, 'a:tbl');
  if (!grid) return undefined;
  const rows = findAll(grid, 'a:tr').map((row) => findAll(row, 'a:tc').map((cell) => escapeCell(findAll(cell, 'a:p').map(runText).join(' ').trim())));
  if (rows.length === 0) return undefined;
  const width = Math.max(...rows.map((row) => row.length));
  const line = (cells: string[]) => `| ${Array.from({ length: width }, (_, i) => cells[i] ?? '').join(' | ')} |`;
  return [line(rows[0]!), `|${' --- |'.repeat(width)}`, ...rows.slice(1).map(line)].join('\n');
}

/**
 * Pure: a PowerPoint presentation (its parts, by name) as Markdown an LLM reads well — one section per slide in
 * show order (its title as the heading), bullets with their levels, tables as pipe tables, pictures by their
 * alternative text and media name (referenced, not embedded), and the speaker notes.
 */
export function slidesToMarkdown(parts: Map<string, Buffer>): string {
  const parsed = new Map<string, XmlElement>();
  const part = (name: string) => {
    if (!parsed.has(name) && parts.has(name)) parsed.set(name, parseXml(parts.get(name)!.toString('utf8')));
    return parsed.get(name);
  };
  const sections: string[] = [];
  slideOrder(part).forEach((slidePath, index) => {
    const slide = part(slidePath);
    if (!slide) return;
    const links = relationships(part, slidePath);
    let title = '';
    const blocks: string[] = [];
    const visit = (tree: XmlElement) => {
      for (const shape of tree.children) {
        if (typeof shape === 'string') continue;
        if (shape.name === 'p:grpSp') visit(shape);
        else if (shape.name === 'p:sp') {
          const placeholder = first(shape, 'p:ph');
          const type = placeholder?.attributes.type ?? (placeholder ? 'body' : undefined);
          if (type && TITLES.has(type) && !title) title = runText(shape).trim();
          else {
            const lines = textLines(shape, type === 'body');
            if (lines.length > 0) blocks.push(lines.join('\n'));
          }
        } else if (shape.name === 'p:graphicFrame') {
          const rendered = table(shape);
          if (rendered) blocks.push(rendered);
        } else if (shape.name === 'p:pic') {
          const described = first(shape, 'p:cNvPr')?.attributes;
          const media = links.get(first(shape, 'a:blip')?.attributes['r:embed'] ?? '')?.split('/').pop();
          blocks.push(`![${escapeCell(described?.descr || described?.name || 'picture')}](${media ?? 'picture'})`);
        }
      }
    };
    const tree = first(slide, 'p:spTree');
    if (tree) visit(tree);
    const notesPath = [...links.values()].find((target) => /notesSlides\/notesSlide\d+\.xml$/.test(target));
    const notes = notesPath ? part(notesPath) : undefined;
    const noteText = notes
      ? findAll(notes, 'p:sp')
          .filter((shape) => first(shape, 'p:ph')?.attributes.type === 'body')
          .flatMap((shape) => textLines(shape, false))
          .join('\n')
      : '';
    if (noteText) blocks.push(`**Notes:** ${noteText}`);
    sections.push([`## Slide ${index + 1}${title ? `: ${title.replace(/\s*\n\s*/g, ' ')}` : ''}`, ...blocks].join('\n\n'));
  });
  if (sections.length === 0) throw new PackageError('it has no slides');
  return `${sections.join('\n\n')}\n`;
}
