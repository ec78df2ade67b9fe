import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** A successful tool result: structured content for programs, the same facts as text for the model. */
export function toolResult(structured: Record<string, unknown>, text: string, extra: CallToolResult['content'] = []): CallToolResult {
  return { structuredContent: structured, content: [{ type: 'text', text }, ...extra] };
}

/** A failed tool call the agent can act on; the server keeps running. */
export function toolError(message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: message }] };
}
