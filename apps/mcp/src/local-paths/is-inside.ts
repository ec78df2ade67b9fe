import { isAbsolute, relative } from 'node:path';

/** Whether `target` is `root` or below it, for absolute, normalised paths (symlinks already resolved by the caller). Pure. */
export function isInside(root: string, target: string): boolean {
  const path = relative(root, target);
  return path === '' || (!isAbsolute(path) && path !== '..' && !path.startsWith('../'));
}
