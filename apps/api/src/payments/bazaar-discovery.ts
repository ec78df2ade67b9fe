import { bazaarResourceServerExtension, declareDiscoveryExtension } from '@x402/extensions/bazaar';
import type { OpenAPIObject } from '@nestjs/swagger';
import { CREATE_JOB_OPERATION, DETECT_FILE_TYPE_OPERATION } from './paid-operations.js';

type JsonSchema = Record<string, unknown>;

/** An example call and answer of a discoverable operation: what a Bazaar catalogue shows beside the schemas. */
interface DiscoveryExample {
  bodyType: 'json' | 'form-data';
  input: Record<string, unknown>;
  output: Record<string, unknown>;
}

/**
 * The paid operations a client starts from, with examples. Buying a result is not listed: its URL is one job's,
 * reached from convert-file's answer, and a catalogue would gain one entry per job.
 */
const DISCOVERABLE: Record<string, DiscoveryExample> = {
  [DETECT_FILE_TYPE_OPERATION]: {
    bodyType: 'json',
    input: { filename: 'scan.bin', size_bytes: 48213, header_first_200_bytes_base64: 'JVBERi0xLjcKJcfsj6IK' },
    output: {
      detected: true,
      input_filename: 'scan.bin',
      suggested_filename: 'scan.pdf',
      detected_format: { format: 'pdf', description: 'PDF document', confidence: 0.99, confidence_percent: 99, canonical_extension: 'pdf' },
      convertible_to: ['docx', 'md', 'png', 'txt'],
      convert_file_compatibility: { status: 'yes', confidence: 0.95, reason: 'pdf converts to 4 formats.' },
    },
  },
  [CREATE_JOB_OPERATION]: {
    bodyType: 'form-data',
    // The file part's bytes cannot be shown: the example names it.
    input: { file: '(the file, a binary part)', target_format: 'md', filename: 'report.pdf', created_at: '2026-11-28T09:30:00Z', size_bytes: 48213 },
    output: {
      job_id: 'job_3kq9VZrY0b1XwTn6pLm2Qa',
      status: 'processing',
      status_url: 'https://fileshift.example/api/x402/v1/convert-file/job_3kq9VZrY0b1XwTn6pLm2Qa/status',
      retry_after_seconds: 2,
    },
  },
};

/**
 * The Bazaar discovery extension of a paid operation (`{ bazaar: … }`), its input and output schemas taken from
 * the OpenAPI document the code produces; undefined for an operation that is not discoverable.
 */
export function bazaarExtensions(document: OpenAPIObject, operationId: string): Record<string, unknown> | undefined {
  const example = DISCOVERABLE[operationId];
  if (!example) return undefined;
  const operation = operationOf(document, operationId);
  const contentType = example.bodyType === 'json' ? 'application/json' : 'multipart/form-data';
  const input = inlined(document, (operation.requestBody as { content?: Record<string, { schema?: JsonSchema }> } | undefined)?.content?.[contentType]?.schema);
  const output = inlined(document, successSchema(operation.responses));
  if (!input || !output) throw new Error(`${operationId}: the OpenAPI document has no ${contentType} body or no JSON success answer`);
  return declareDiscoveryExtension({
    bodyType: example.bodyType,
    input: example.input,
    inputSchema: input,
    output: { example: example.output, schema: output },
  });
}

/**
 * The Bazaar metadata as a challenge of `method` carries it (Bazaar's server extension adds the method), for the
 * discovery documents. No route of ours has a path parameter and metadata, so no request path is needed.
 */
export function publishedBazaarExtensions(document: OpenAPIObject, operationId: string, method: string): Record<string, unknown> | undefined {
  const declared = bazaarExtensions(document, operationId);
  if (!declared) return undefined;
  return { bazaar: bazaarResourceServerExtension.enrichDeclaration!(declared.bazaar, { method, adapter: undefined }) };
}

/** The operation ids that carry Bazaar metadata. */
export const DISCOVERABLE_OPERATIONS: readonly string[] = Object.keys(DISCOVERABLE);

function operationOf(document: OpenAPIObject, operationId: string): Record<string, unknown> & { responses?: unknown; requestBody?: unknown } {
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item as Record<string, { operationId?: string }>)) {
      if (operation?.operationId === operationId) return operation as Record<string, unknown>;
    }
  }
  throw new Error(`no operation ${operationId} in the OpenAPI document`);
}

function successSchema(responses: unknown): JsonSchema | undefined {
  for (const [status, response] of Object.entries((responses ?? {}) as Record<string, { content?: Record<string, { schema?: JsonSchema }> }>)) {
    if (/^2\d\d$/.test(status) && response.content?.['application/json']?.schema) return response.content['application/json'].schema;
  }
  return undefined;
}

/** The schema with every `#/components/schemas/…` reference replaced by its target (a Bazaar schema stands alone). */
function inlined(document: OpenAPIObject, schema: JsonSchema | undefined, seen: readonly string[] = []): JsonSchema | undefined {
  if (!schema) return undefined;
  const resolve = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(resolve);
    if (!value || typeof value !== 'object') return value;
    const ref = (value as { $ref?: unknown }).$ref;
    if (typeof ref === 'string') {
      const name = ref.replace('#/components/schemas/', '');
      if (seen.includes(name)) throw new Error(`schema ${name} refers to itself: it cannot be inlined`);
      return inlined(document, document.components?.schemas?.[name] as JsonSchema | undefined, [...seen, name]);
    }
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, resolve(inner)]));
  };
  return resolve(schema) as JsonSchema;
}

