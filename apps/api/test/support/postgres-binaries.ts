import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { findOnPath } from './find-on-path.js';

/** The PostgreSQL server programs a private server needs. */
export interface PostgresBinaries {
  initdb: string;
  postgres: string;
}

const DEBIAN_VERSIONS_DIR = '/usr/lib/postgresql';

/**
 * Finds initdb and postgres: `pg_config --bindir` when it holds them, else the highest Debian
 * /usr/lib/postgresql/<version>/bin (Debian keeps them off PATH), else PATH itself.
 */
export function findPostgresBinaries(): PostgresBinaries {
  const dir = [pgConfigBindir(), highestDebianBindir(), pathBindir()].find((candidate) => candidate !== undefined && hasServerPrograms(candidate));
  if (!dir) {
    throw new Error(
      `initdb and postgres were not found (pg_config --bindir, ${DEBIAN_VERSIONS_DIR}/*/bin, PATH): install the Debian package postgresql (bash tools/engines/ensure-debian-packages.sh, which npm test runs)`,
    );
  }
  return { initdb: join(dir, 'initdb'), postgres: join(dir, 'postgres') };
}

function hasServerPrograms(dir: string): boolean {
  return existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'postgres'));
}

function pgConfigBindir(): string | undefined {
  try {
    return execFileSync('pg_config', ['--bindir'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || undefined;
  } catch {
    return undefined; // no pg_config, or Debian's wrapper without a server version behind it
  }
}

function highestDebianBindir(): string | undefined {
  if (!existsSync(DEBIAN_VERSIONS_DIR)) return undefined;
  const versions = readdirSync(DEBIAN_VERSIONS_DIR)
    .filter((name) => /^\d+(\.\d+)?$/.test(name) && hasServerPrograms(join(DEBIAN_VERSIONS_DIR, name, 'bin')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length > 0 ? join(DEBIAN_VERSIONS_DIR, versions[0], 'bin') : undefined;
}

function pathBindir(): string | undefined {
  const initdb = findOnPath('initdb');
  return initdb ? dirname(initdb) : undefined;
}
