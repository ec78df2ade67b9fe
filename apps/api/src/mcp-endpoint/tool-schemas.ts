import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { McpTool } from './mcp-tool.js';

type JsonSchema = Record<string, unknown>;

/** Keywords that describe a value rather than constrain it: they stay beside an anyOf. */
const ANNOTATIONS = new Set(['description', 'title', 'default', 'examples', 'deprecated']);

/**
 * JSON Schema draft 7, as MCP clients validate it (the SDK's Ajv among them), without a `$schema` to resolve, in the
 * portable spelling: a nullable field as `anyOf` of single types (function-calling dialects refuse a type array), and
 * "any property" as `additionalProperties: true` rather than an empty schema.
 */
function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _draft, ...json } = z.toJSONSchema(schema, { target: 'draft-7', io, unrepresentable: 'any' }) as JsonSchema;
  return portable(json) as JsonSchema;
}

function portable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(portable);
  if (typeof node !== 'object' || node === null) return node;
  const converted: JsonSchema = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, portable(value)]));
  const { additionalProperties: extra } = converted;
  if (typeof extra === 'object' && extra !== null && Object.keys(extra).length === 0) converted.additionalProperties = true;
  const { type } = converted;
  if (!Array.isArray(type)) return converted;
  const outside: JsonSchema = {};
  const inside: JsonSchema = {};
  for (const [key, value] of Object.entries(converted)) if (key !== 'type') (ANNOTATIONS.has(key) ? outside : inside)[key] = value;
  return { ...outside, anyOf: type.map((name) => (name === 'null' ? { type: 'null' } : { ...inside, type: name })) };
}

/** A refused call's structuredContent: the HTTP API's error, with its status. */
const TOOL_ERROR = jsonSchemaOf(
  z.object({
    error: z.object({ status: z.number().int(), code: z.string(), message: z.string(), details: z.record(z.string(), z.unknown()).optional(), retry_after_seconds: z.number().optional() }),
  }),
  'output',
);

/** A paid tool's challenge (x402 PaymentRequired), with the refused settlement's answer when there was one. */
const PAYMENT_REQUIRED = jsonSchemaOf(
  z.looseObject({
    x402Version: z.number().int(),
    error: z.string().optional(),
    resource: z.looseObject({ url: z.string() }),
    accepts: z.array(z.looseObject({ scheme: z.string(), network: z.string(), amount: z.string(), asset: z.string(), payTo: z.string() })),
    extensions: z.record(z.string(), z.unknown()).optional(),
    'x402/payment-response': z.looseObject({ success: z.literal(false), errorReason: z.string() }).optional(),
  }),
  'output',
);

/**
 * A tool as tools/list publishes it. Its output schema admits what its structuredContent may be: its answer, the
 * HTTP API's error when refused, and for a paid tool the payment challenge (MCP clients check an error's
 * structuredContent against the output schema too).
 */
export function listedTool(tool: McpTool): Tool {
  const answers = [jsonSchemaOf(tool.outputSchema, 'output'), TOOL_ERROR, ...(tool.paid ? [PAYMENT_REQUIRED] : [])];
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: jsonSchemaOf(tool.inputSchema, 'input') as Tool['inputSchema'],
    outputSchema: { type: 'object', anyOf: answers } as Tool['outputSchema'],
    annotations: { title: tool.title, ...tool.annotations },
  };
}
