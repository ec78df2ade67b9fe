import { readFileSync } from 'node:fs';
import type { OpenAPIObject } from '@nestjs/swagger';
import { type DiscoveryExtension, validateDiscoveryExtension } from '@x402/extensions/bazaar';
import { describe, expect, it } from 'vitest';
import { CREATE_JOB_OPERATION, DETECT_FILE_TYPE_OPERATION, PURCHASE_RESULT_OPERATION } from './paid-operations.js';
import { bazaarExtensions, DISCOVERABLE_OPERATIONS, publishedBazaarExtensions } from './bazaar-discovery.js';

// The OpenAPI document the code produces (exported for the SDK, checked against the running service there).
const document = JSON.parse(readFileSync(new URL('../../../../libs/sdk/openapi/openapi.json', import.meta.url), 'utf8')) as OpenAPIObject;

type Declared = { info: { input: Record<string, unknown>; output?: { example?: unknown } }; schema: { properties: { input: { properties: { body: { properties: Record<string, unknown>; required?: string[] } } }; output?: { properties: { example: { properties?: Record<string, unknown> } } } } } };
const bazaarOf = (extensions: Record<string, unknown> | undefined) => extensions?.bazaar as Declared;

describe('bazaarExtensions: Bazaar discovery metadata of the paid entry points, from the OpenAPI document', () => {
  it('declares detection (JSON) and job creation (multipart) with their request and answer schemas, examples valid against them', () => {
    expect(DISCOVERABLE_OPERATIONS).toEqual([DETECT_FILE_TYPE_OPERATION, CREATE_JOB_OPERATION]);
    for (const operationId of DISCOVERABLE_OPERATIONS) {
      const bazaar = bazaarOf(publishedBazaarExtensions(document, operationId, 'POST'));
      expect(validateDiscoveryExtension(bazaar as unknown as DiscoveryExtension), operationId).toEqual({ valid: true });
      expect(bazaar.info.input.method).toBe('POST');
    }
    const detect = bazaarOf(bazaarExtensions(document, DETECT_FILE_TYPE_OPERATION));
    expect(detect.info.input).toMatchObject({ type: 'http', bodyType: 'json' });
    // Either the file described (name, size, first bytes) or its source_url for the service to fetch.
    const body = detect.schema.properties.input.properties.body as { anyOf?: Array<{ required?: string[] }> };
    expect(body.anyOf?.map((shape) => shape.required)).toEqual([expect.arrayContaining(['filename', 'size_bytes', 'header_first_200_bytes_base64']), ['source_url']]);
    expect(Object.keys(detect.schema.properties.output!.properties.example.properties!)).toEqual(expect.arrayContaining(['detected_format', 'convertible_to']));

    const create = bazaarOf(bazaarExtensions(document, CREATE_JOB_OPERATION));
    expect(create.info.input).toMatchObject({ bodyType: 'form-data' });
    // One binary part, or the part repeated to join several files.
    expect((create.schema.properties.input.properties.body.properties.file as { anyOf?: unknown[] }).anyOf).toEqual([{ type: 'string', format: 'binary' }, expect.objectContaining({ type: 'array', items: { type: 'string', format: 'binary' } })]);
    expect(create.schema.properties.input.properties.body.required).toEqual(expect.arrayContaining(['file', 'target_format']));
    expect(create.schema.properties.output!.properties.example.properties).toHaveProperty('status_url');
  });

  it('stands alone: no reference into the OpenAPI components is left', () => {
    for (const operationId of DISCOVERABLE_OPERATIONS) expect(JSON.stringify(bazaarExtensions(document, operationId))).not.toContain('$ref');
  });

  it('finds an example that no longer fits the schema (a renamed field fails validation)', () => {
    const bazaar = bazaarOf(publishedBazaarExtensions(document, DETECT_FILE_TYPE_OPERATION, 'POST'));
    const body = bazaar.info.input.body as Record<string, unknown>;
    const { filename: _filename, ...renamed } = body;
    const stale = { ...bazaar, info: { ...bazaar.info, input: { ...bazaar.info.input, body: { ...renamed, file_name: 'x' } } } };
    expect(validateDiscoveryExtension(stale as unknown as DiscoveryExtension).valid).toBe(false);
  });

  it('declares nothing for buying a result (one URL per job) or an unknown operation, and names a missing operation', () => {
    expect(bazaarExtensions(document, PURCHASE_RESULT_OPERATION)).toBeUndefined();
    expect(bazaarExtensions(document, 'noSuchOperation')).toBeUndefined();
    expect(() => bazaarExtensions({ ...document, paths: {} }, DETECT_FILE_TYPE_OPERATION)).toThrow(/no operation detectFileType/);
  });
});
