import type { CallToolResult, Resource } from '@modelcontextprotocol/sdk/types.js';

/** Results up to this size are embedded in the tool result as well. */
export const MAX_EMBEDDED_BYTES = 1024 * 1024;

export type EmbeddedAs = 'image' | 'audio' | 'resource';

export interface ResultContent {
  content: CallToolResult['content'];
  embeddedAs: EmbeddedAs | null;
  /** Set when the result would have been embedded but is over the limit. */
  tooBigToEmbed: boolean;
}

/**
 * The content blocks for a bought result: always a resource_link to its MCP resource; an image or audio block when
 * it is one and small enough; other types embedded as a resource only when asked (`embed`). Pure.
 */
export function resultContent(resource: Resource, data: Uint8Array, { embed }: { embed: boolean }): ResultContent {
  const link = { type: 'resource_link' as const, ...resource };
  const mimeType = resource.mimeType ?? 'application/octet-stream';
  const kind: EmbeddedAs | null = mimeType.startsWith('image/') ? 'image' : mimeType.startsWith('audio/') ? 'audio' : embed ? 'resource' : null;
  if (kind === null) return { content: [link], embeddedAs: null, tooBigToEmbed: false };
  if (data.length > MAX_EMBEDDED_BYTES) return { content: [link], embeddedAs: null, tooBigToEmbed: true };
  const base64 = Buffer.from(data).toString('base64');
  const inline =
    kind === 'resource'
      ? { type: 'resource' as const, resource: { uri: resource.uri, mimeType, blob: base64 } }
      : { type: kind, data: base64, mimeType };
  return { content: [link, inline], embeddedAs: kind, tooBigToEmbed: false };
}

/** One sentence for the tool's text about how the file came back. */
export function describeResultContent(resource: Resource, { embeddedAs, tooBigToEmbed }: ResultContent): string {
  const readable = `Readable as the MCP resource ${resource.uri}`;
  if (tooBigToEmbed) return `${readable}; too big to embed here (${resource.size} bytes, over ${MAX_EMBEDDED_BYTES}).`;
  return embeddedAs ? `${readable}; embedded below as ${embeddedAs === 'resource' ? 'a resource' : `${embeddedAs} content`}.` : `${readable}.`;
}
