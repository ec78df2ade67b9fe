import { readFile } from 'node:fs/promises';
import { type McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError, type ReadResourceResult, type Resource } from '@modelcontextprotocol/sdk/types.js';

export const RESULT_URI_TEMPLATE = 'fileshift://results/{job_id}/{filename}';

interface StoredResult {
  resource: Resource;
  /** The saved copy in the output directory, read again on every resources/read. */
  path: string;
}

/**
 * The results this session bought, as MCP resources (`fileshift://results/<job_id>/<file>`): listed by
 * resources/list, readable by resources/read, so a host that cannot see the server's disk still gets the file.
 * Per session: one client does not see what another bought.
 */
export class ResultResources {
  private readonly results = new Map<string, StoredResult>();

  constructor(private readonly server: McpServer) {
    server.registerResource(
      'conversion-result',
      new ResourceTemplate(RESULT_URI_TEMPLATE, { list: () => ({ resources: [...this.results.values()].map((stored) => stored.resource) }) }),
      { title: 'Conversion result', description: 'A conversion result bought in this session (purchase_result or convert_and_download).' },
      (uri) => this.read(uri.href),
    );
  }

  /** Registers a saved result and tells the client the list changed; returns its resource. */
  add(result: { jobId: string; filename: string; mimeType: string; sizeBytes: number; path: string }): Resource {
    const uri = `fileshift://results/${encodeURIComponent(result.jobId)}/${encodeURIComponent(result.filename)}`;
    const resource: Resource = { uri, name: result.filename, title: `${result.filename} (job ${result.jobId})`, mimeType: result.mimeType, size: result.sizeBytes };
    const known = this.results.has(uri);
    this.results.set(uri, { resource, path: result.path });
    if (!known) this.server.sendResourceListChanged();
    return resource;
  }

  private async read(uri: string): Promise<ReadResourceResult> {
    const stored = this.results.get(uri);
    if (!stored) throw new McpError(ErrorCode.InvalidParams, `No result ${uri} in this session; buy it with purchase_result (free if bought before).`);
    const data = await readFile(stored.path).catch(() => {
      throw new McpError(ErrorCode.InvalidParams, `The result ${uri} is no longer at ${stored.path}; call purchase_result again (free) to fetch it anew.`);
    });
    const { mimeType } = stored.resource;
    if (mimeType?.startsWith('text/') || mimeType === 'application/json') return { contents: [{ uri, mimeType, text: data.toString('utf8') }] };
    return { contents: [{ uri, mimeType, blob: data.toString('base64') }] };
  }
}
