import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { ProgressNotifier } from '../src/tools/progress-notifier.js';

/** The part of a tool call's `extra` the notifier uses: its progress token and notification sender. */
function toolCall(send: (notification: ServerNotification) => Promise<void>, progressToken: string | null = 'token') {
  return { _meta: progressToken === null ? undefined : { progressToken }, sendNotification: send } as unknown as RequestHandlerExtra<ServerRequest, ServerNotification>;
}

describe('ProgressNotifier', () => {
  it('sends strictly increasing values only', async () => {
    const sent: number[] = [];
    const notifier = new ProgressNotifier(toolCall(async (notification) => void sent.push((notification.params as { progress: number }).progress)));
    for (const value of [5, 5, 30, 20, 30, 90, 100, 100]) await notifier.report(value, 'step');
    expect(sent).toEqual([5, 30, 90, 100]);
  });

  it('swallows a failed notification, so it cannot fail the call', async () => {
    const notifier = new ProgressNotifier(toolCall(() => Promise.reject(new Error('the client went away'))));
    await expect(notifier.report(100, 'saved')).resolves.toBeUndefined();
  });

  it('sends nothing when the client asked for no progress', async () => {
    const sent: unknown[] = [];
    await new ProgressNotifier(toolCall(async (notification) => void sent.push(notification), null)).report(50, 'half');
    expect(sent).toEqual([]);
  });
});
