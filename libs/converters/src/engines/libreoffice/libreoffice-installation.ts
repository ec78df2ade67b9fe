import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { LIBREOFFICE_DESCRIPTOR } from './libreoffice.descriptor.js';
import { CHECK_PATIENCE_MS } from '../../platform/sandbox/check-patience.js';
import { SandboxedProcessRunner } from '../../platform/sandboxed-process.runner.js';

/** Where Debian puts the soffice launcher (the one on PATH is a symlink to it). */
export const DEBIAN_SOFFICE = '/usr/lib/libreoffice/program/soffice';
/** Debian's interpreter, which python3-uno extends; another python3 first on PATH may lack `uno`. */
export const DEBIAN_PYTHON = '/usr/bin/python3';

export interface LibreOfficeInstallation {
  soffice: string;
  python: string;
  /** e.g. "LibreOffice 7.4.7.2 40(Build:2)". */
  version: string;
}

export type InstallationCheck = { ok: true; installation: LibreOfficeInstallation } | { ok: false; problem: string };

const INSTALL_HINT = `apt-get install ${LIBREOFFICE_DESCRIPTOR.debianPackages.join(' ')}`;

const executable = (path: string) => access(path, constants.X_OK).then(() => true, () => false);

async function findSoffice(explicit?: string): Promise<string | undefined> {
  if (explicit) return (await executable(explicit)) ? explicit : undefined;
  const candidates = [DEBIAN_SOFFICE, ...(process.env.PATH ?? '/usr/bin').split(':').filter(Boolean).map((dir) => `${dir}/soffice`)];
  for (const candidate of candidates) if (await executable(candidate)) return candidate;
  return undefined;
}

/**
 * Checks, without starting an instance, that soffice runs and that Python can import `uno`: about 0.2 s.
 * The answer names the Debian packages to install when something is missing.
 */
export async function checkInstallation(options: { soffice?: string; python?: string } = {}, runner = new SandboxedProcessRunner()): Promise<InstallationCheck> {
  const soffice = await findSoffice(options.soffice);
  if (!soffice) return { ok: false, problem: `LibreOffice (soffice) is not installed (${INSTALL_HINT})` };
  const python = options.python ?? DEBIAN_PYTHON;
  // HOME is the runner's throw-away directory, so nothing is written to a real profile.
  const version = await runner.run({ command: soffice, args: ['--version'], timeoutMs: CHECK_PATIENCE_MS }).catch(() => undefined);
  if (!version || version.exitCode !== 0 || !/LibreOffice/.test(version.stdout)) {
    return { ok: false, problem: `LibreOffice (${soffice}) does not run: ${version?.stderrTail.trim().slice(-200) || 'no version'} (${INSTALL_HINT})` };
  }
  const uno = await runner.run({ command: python, args: ['-I', '-c', 'import uno; print("uno ok")'], timeoutMs: CHECK_PATIENCE_MS }).catch(() => undefined);
  if (!uno || uno.exitCode !== 0 || !uno.stdout.includes('uno ok')) {
    return { ok: false, problem: `Python UNO is missing: ${python} cannot import uno (${INSTALL_HINT})` };
  }
  return { ok: true, installation: { soffice, python, version: version.stdout.trim().split('\n')[0]! } };
}
