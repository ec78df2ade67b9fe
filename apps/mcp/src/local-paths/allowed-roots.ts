import { realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { RootsListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { FileInputError } from '../file-input-error.js';
import { isInside } from './is-inside.js';

/**
 * The directories one session may read local files from: the MCP roots its client declares, when the client
 * supports roots (asked once, asked again after a roots/list_changed notification), else the configured list.
 */
export class AllowedRoots {
  private clientRoots: Promise<string[]> | null = null;

  constructor(
    private readonly server: Server,
    private readonly configured: readonly string[],
  ) {
    server.setNotificationHandler(RootsListChangedNotificationSchema, () => {
      this.clientRoots = null;
    });
  }

  async current(): Promise<{ roots: string[]; source: 'client' | 'configuration' }> {
    if (!this.server.getClientCapabilities()?.roots) return { roots: [...this.configured], source: 'configuration' };
    this.clientRoots ??= this.server.listRoots().then(({ roots }) => roots.filter((root) => root.uri.startsWith('file:')).map((root) => fileURLToPath(root.uri)));
    try {
      return { roots: await this.clientRoots, source: 'client' };
    } catch (error) {
      this.clientRoots = null;
      throw new FileInputError(`The client's roots could not be read (${(error as Error).message}), so no local file is read; send url or content_base64.`);
    }
  }

  /**
   * The real path of `path` when it lies inside an allowed root once every symlink is resolved; a FileInputError
   * otherwise. A missing file outside the roots is reported as outside, so the answer reveals nothing beyond them.
   */
  async check(path: string): Promise<string> {
    const requested = resolve(path);
    const { roots, source } = await this.current();
    if (roots.length === 0) {
      throw new FileInputError(
        source === 'client'
          ? 'The client declares no file roots, so no local path may be read; add a root in the client, or send url or content_base64.'
          : 'No local directory is allowed: set FILESHIFT_ALLOWED_ROOTS (directories separated by ":") or use a client that declares MCP roots; or send url or content_base64.',
      );
    }
    const realRoots = (await Promise.all(roots.map((root) => realpath(root).catch(() => null)))).filter((root): root is string => root !== null);
    const real = await realpath(requested).catch(() => null);
    const outside = new FileInputError(`${requested} is outside the allowed roots (${roots.join(', ')}); only files inside them are read.`);
    if (real === null) {
      const lexicallyInside = [...realRoots, ...roots.map((root) => resolve(root))].some((root) => isInside(root, requested));
      throw lexicallyInside ? new FileInputError(`No readable file at ${requested}.`) : outside;
    }
    if (!realRoots.some((root) => isInside(root, real))) throw outside;
    return real;
  }
}
