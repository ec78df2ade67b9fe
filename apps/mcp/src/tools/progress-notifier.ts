import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';

/**
 * MCP progress notifications for one tool call, when the client asked for them (a progress token).
 * Best effort: a notification that fails is dropped, so it can never fail the call (which may have
 * paid by then). Strictly increasing, as MCP requires: a value not above the last one is skipped.
 */
export class ProgressNotifier {
  private last = Number.NEGATIVE_INFINITY;

  constructor(private readonly extra: RequestHandlerExtra<ServerRequest, ServerNotification>) {}

  /** Never rejects. */
  async report(progress: number, message: string): Promise<void> {
    const progressToken = this.extra._meta?.progressToken;
    if (progressToken === undefined || progress <= this.last) return;
    this.last = progress;
    await this.extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress, total: 100, message } }).catch(() => undefined);
  }
}
