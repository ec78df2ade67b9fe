import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

/**
 * A path from the configuration, absolute. "~" expands (client configurations such as Claude Desktop's pass
 * it unexpanded: no shell runs in between). A relative path is refused: an MCP client starts the server
 * from a working directory nobody chose, and there is no configuration file of ours to resolve it against.
 */
export function configuredPath(variable: string, path: string): { ok: true; path: string } | { ok: false; problem: string } {
  const expanded = path === '~' || path.startsWith('~/') ? join(homedir(), path.slice(1)) : path;
  // resolve() only normalises here (the path is absolute): "/srv/files/" and "/srv/./files" are "/srv/files".
  if (isAbsolute(expanded)) return { ok: true, path: resolve(expanded) };
  return { ok: false, problem: `${variable}: "${path}" is a relative path; give an absolute one (or ~/…): the server's working directory is whatever the MCP client chose` };
}
