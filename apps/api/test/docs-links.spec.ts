import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DOCUMENT_FONTS } from '@fileshift/converters';
import { environmentSchema } from '../src/config/app-config.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The repository's own documentation: the README, docs/ and every project's README. */
function pages(): string[] {
  const inDocs = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? inDocs(join(dir, entry.name)) : entry.name.endsWith('.md') ? [join(dir, entry.name)] : []));
  const projects = ['apps', 'libs'].flatMap((group) => readdirSync(join(ROOT, group)).map((name) => join(ROOT, group, name, 'README.md')));
  const engines = readdirSync(join(ROOT, 'libs/converters/src/engines')).map((name) => join(ROOT, 'libs/converters/src/engines', name, 'README.md'));
  return [join(ROOT, 'README.md'), ...inDocs(join(ROOT, 'docs')), ...projects, ...engines].filter((page) => existsSync(page));
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N}_\- ]/gu, '').replace(/ /g, '-');

function anchorsOf(page: string): Set<string> {
  const text = readFileSync(page, 'utf8').replace(/^ *```[\s\S]*?^ *```/gm, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map(([, heading]) => anchorOf(heading!)));
}

/** Every link of a page that does not resolve inside the repository: a missing file or heading, or a path leaving it. */
function brokenLinks(page: string): string[] {
  const text = readFileSync(page, 'utf8').replace(/^ *```[\s\S]*?^ *```/gm, '').replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].flatMap(([, url]) => {
    if (/^(https?:|mailto:)/.test(url!)) return [];
    const [path, anchor] = url!.split('#') as [string, string | undefined];
    const target = path ? resolve(dirname(page), path) : page;
    const where = `${relative(ROOT, page)}: ${url}`;
    if (relative(ROOT, target).startsWith('..')) return [`${where} leaves the repository`];
    if (!existsSync(target)) return [`${where} names no file`];
    if (anchor && statSync(target).isFile() && target.endsWith('.md') && !anchorsOf(target).has(anchor)) return [`${where} names no heading`];
    return [];
  });
}

describe('the documentation', () => {
  it('links only inside the repository, to files and headings that exist', () => {
    const checked = pages();
    expect(checked.length).toBeGreaterThan(15);
    expect(checked.flatMap(brokenLinks)).toEqual([]);
  });

  it('has a README that is a front door: short, with the two commands and the map of docs/', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme.split('\n').length).toBeLessThanOrEqual(200);
    expect(readme).toContain('npm ci && npm start');
    expect(readme).toContain('npm test');
    expect(readme).toContain('```mermaid');
    for (const page of readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md'))) expect(readme, page).toContain(`docs/${page}`);
  });

  it('documents every environment variable the service reads (docs/configuration.md), and no other', () => {
    const table = readFileSync(join(ROOT, 'docs/configuration.md'), 'utf8');
    const documented = new Set([...table.matchAll(/^\| (`[A-Z0-9_]+`(?:, `[A-Z0-9_]+`)*) \|/gm)].flatMap(([, names]) => names!.split(', ').map((name) => name.slice(1, -1))));
    expect([...documented].sort()).toEqual(Object.keys(environmentSchema.shape).sort());
  });

  it('lists every font the engines draw with, as DOCUMENT_FONTS has them (docs/engines.md)', () => {
    const engines = readFileSync(join(ROOT, 'docs/engines.md'), 'utf8');
    const listed = [...engines.matchAll(/^\| `(fonts-[a-z0-9-]+)` \|/gm)].map(([, name]) => name);
    expect(listed).toEqual(DOCUMENT_FONTS.map((font) => font.debianPackage));
  });

  it('names headings the way GitHub anchors them', () => {
    expect(anchorOf('`QUEUE_PREFIX` and deployments sharing a Redis')).toBe('queue_prefix-and-deployments-sharing-a-redis');
    expect(anchorOf('Payments (x402)')).toBe('payments-x402');
  });
});
