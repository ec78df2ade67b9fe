import { randomBytes } from 'node:crypto';

/** The only names download routes serve: a random download token, optionally a part number, and an extension. */
export const DOWNLOAD_NAME = /^([A-Za-z0-9_-]{32})(?:-([1-9]\d{0,4}))?\.([a-z0-9]{1,20})$/;

export interface DownloadName {
  token: string;
  /** The part-th of several files (1-based), for a name `<token>-<part>.<ext>`. */
  part?: number;
  extension: string;
}

/** Pure: a download name's parts; null for any other name (it is never used as a path). */
export function parseDownloadName(name: string): DownloadName | null {
  const match = DOWNLOAD_NAME.exec(name);
  return match ? { token: match[1]!, part: match[2] ? Number(match[2]) : undefined, extension: match[3]! } : null;
}

/** 32 URL-safe characters (192 random bits): a download name is its own credential. */
export function newDownloadToken(): string {
  return randomBytes(24).toString('base64url');
}
