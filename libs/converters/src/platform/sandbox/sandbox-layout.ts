import { lstat, readlink } from 'node:fs/promises';

/** The top-level directories a program's libraries and interpreters may live in. */
const ROOT_DIRECTORIES = ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

/**
 * What engines read in /etc: fonts and their configuration, the dynamic linker's cache, alternatives (which
 * `convert` is), time zone, paper size, MIME types and the configuration of the engines themselves. Nothing else
 * of /etc is there: no passwd of the host (the sandbox has its own), no hosts, no resolver, no service's settings.
 */
export const ETC_ENTRIES = [
  '/etc/alternatives',
  '/etc/fonts',
  '/etc/ghostscript',
  '/etc/ImageMagick-6',
  '/etc/ld.so.cache',
  '/etc/ld.so.conf',
  '/etc/ld.so.conf.d',
  '/etc/libpaper.d',
  '/etc/libreoffice',
  '/etc/localtime',
  '/etc/mime.types',
  '/etc/papersize',
  '/etc/python3',
  '/etc/python3.11',
];

/**
 * Read-only system state beyond /usr and /etc: the font cache (without it every engine start rebuilds it) and
 * Ghostscript's font maps and CMaps (Debian generates them there).
 */
export const SYSTEM_PATHS = ['/var/cache/fontconfig', '/var/lib/ghostscript'];

/** How this machine's root looks, as far as a sandbox rebuilds it. */
export interface SandboxLayout {
  /** /bin, /lib… as they are here: a link into /usr (merged /usr) or a directory of its own. */
  rootEntries: Array<{ path: string; linkTo?: string }>;
  /** The entries of ETC_ENTRIES and SYSTEM_PATHS that exist here. */
  systemPaths: string[];
}

/** Reads the layout (a few lstat calls at start-up). */
export async function readSandboxLayout(): Promise<SandboxLayout> {
  const rootEntries: SandboxLayout['rootEntries'] = [];
  for (const path of ROOT_DIRECTORIES) {
    const stats = await lstat(path).catch(() => undefined);
    if (!stats) continue;
    rootEntries.push(stats.isSymbolicLink() ? { path, linkTo: await readlink(path) } : { path });
  }
  const present = await Promise.all([...ETC_ENTRIES, ...SYSTEM_PATHS].map(async (path) => ((await lstat(path).catch(() => undefined)) ? path : undefined)));
  return { rootEntries, systemPaths: present.filter((path): path is string => path !== undefined) };
}
