import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { wrapRequestHandler } from './sdk-request-handlers.js';

type Schema = Record<string, unknown>;

/** Keywords that describe a value rather than constrain it: they stay beside the anyOf. */
const ANNOTATIONS = new Set(['description', 'title', 'default', 'examples', 'deprecated']);

/**
 * The SDK writes a nullable field as `type: ["string", "null"]`; some clients' schema converters
 * (function-calling subsets of JSON Schema) reject a type array. `anyOf: [{type: "string"}, {type:
 * "null"}]` says the same and is accepted by those clients, so every schema is served in that form.
 */
export function portableNullables(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(portableNullables);
  if (typeof node !== 'object' || node === null) return node;
  const converted: Schema = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, portableNullables(value)]));
  const { type } = converted;
  if (!Array.isArray(type) || !type.includes('null')) return converted;
  const outside: Schema = {};
  const inside: Schema = {};
  for (const [key, value] of Object.entries(converted)) {
    if (key === 'type' || key === '$schema') continue;
    (ANNOTATIONS.has(key) ? outside : inside)[key] = value;
  }
  if (Array.isArray(inside.enum)) inside.enum = inside.enum.filter((value) => value !== null);
  const nonNull = type.filter((name) => name !== 'null').map((name) => ({ ...inside, type: name }));
  return { ...('$schema' in converted ? { $schema: converted.$schema } : {}), ...outside, anyOf: [...nonNull, { type: 'null' }] };
}

/** Serves tools/list with portable input and output schemas. */
export function servePortableToolSchemas(server: McpServer): void {
  wrapRequestHandler(server, 'tools/list', (original) => async (request, extra) => {
    const listed = (await original(request, extra)) as { tools: Schema[] };
    return {
      ...listed,
      tools: listed.tools.map((tool) => ({
        ...tool,
        inputSchema: portableNullables(tool.inputSchema),
        ...(tool.outputSchema ? { outputSchema: portableNullables(tool.outputSchema) } : {}),
      })),
    };
  });
}
