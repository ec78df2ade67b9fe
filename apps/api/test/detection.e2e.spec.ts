import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/test-app.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');
const SEP = Buffer.from([0xfe]);
const keyBody = (...parts: Array<string | Buffer>) =>
  Buffer.concat(parts.flatMap((part, i) => [i ? SEP : Buffer.alloc(0), typeof part === 'string' ? Buffer.from(part, 'latin1') : part]));

describe('detect endpoints (real service)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ ROLE: 'api' });
  });
  afterAll(async () => t?.close());

  const x402 = (body: unknown, raw = false) =>
    fetch(`${t.baseUrl}/api/x402/v1/detect-file-type`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: raw ? (body as string) : JSON.stringify(body),
    });
  const key = (body: Buffer, accept?: string) =>
    fetch(`${t.baseUrl}/api/v1/detect_file_type`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream', ...(accept ? { accept } : {}) },
      body,
    });

  it('x402 detect: a valid request is challenged (402), never answered unpaid', async () => {
    const response = await x402({ filename: 'a.png', size_bytes: 100, header_first_200_bytes_base64: PNG.toString('base64') });
    expect(response.status).toBe(402);
  });

  it('x402 detect: every validation failure is 422 validation_error naming the field, before any challenge', async () => {
    const valid = { filename: 'a.png', size_bytes: 100, header_first_200_bytes_base64: PNG.toString('base64'), created_at: '2026-01-01T10:00:00Z' };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...valid, filename: 'x'.repeat(256) }, 'filename'],
      [{ ...valid, filename: undefined }, 'filename'],
      [{ ...valid, size_bytes: -1 }, 'size_bytes'],
      [{ ...valid, size_bytes: 1.5 }, 'size_bytes'],
      [{ ...valid, size_bytes: '100' }, 'size_bytes'],
      [{ ...valid, header_first_200_bytes_base64: 'not base64!' }, 'header_first_200_bytes_base64'],
      [{ ...valid, header_first_200_bytes_base64: Buffer.alloc(201).toString('base64'), size_bytes: 1000 }, 'header_first_200_bytes_base64'],
      [{ ...valid, size_bytes: 3 }, 'header_first_200_bytes_base64'],
      [{ ...valid, created_at: 'yesterday' }, 'created_at'],
    ];
    for (const [body, field] of cases) {
      const response = await x402(body);
      expect(response.status, field).toBe(422);
      const error = ((await response.json()) as { error: { code: string; details: { fields: Array<{ field: string }> } } }).error;
      expect(error.code).toBe('validation_error');
      expect(error.details.fields.map((f) => f.field)).toContain(field);
    }
  });

  it('x402 detect: malformed JSON is 400 and an oversized body 413, in the ErrorResponse shape', async () => {
    const malformed = await x402('{"filename": ', true);
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { error: { code: string } }).error.code).toBe('bad_request');
    const huge = await x402(JSON.stringify({ filename: 'a'.repeat(2_000_000) }), true);
    expect(huge.status).toBe(413);
    expect(((await huge.json()) as { error: { code: string } }).error.code).toBe('payload_too_large');
  });

  it('key detect: answers a sentence, or JSON when Accept prefers it; names a wrong extension', async () => {
    const text = await key(keyBody('jpg', '1a2b', 'image/jpeg', 'holiday.jpg', PNG));
    expect(text.status).toBe(200);
    expect(text.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const sentence = await text.text();
    expect(sentence).toContain('PNG image');
    expect(sentence).toContain('suggested filename: holiday.png');

    const json = await key(keyBody('jpg', '0x1A2B', 'image/jpeg', 'holiday.jpg', PNG), 'application/json, text/plain;q=0.5');
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await json.json()).toMatchObject({ Status: 'OK', detected: true, format: 'png', extension_matches: false, suggested_filename: 'holiday.png' });
  });

  it('key detect: bytes that fit several formats rank them, and the MIME type or the extension decides', async () => {
    // An Office Open XML package whose first entry is [Content_Types].xml: a document, a workbook or a presentation.
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(8, 8);
    local.writeUInt16LE('[Content_Types].xml'.length, 26);
    const ooxml = Buffer.concat([local, Buffer.from('[Content_Types].xml'), Buffer.alloc(120, 0x5a)]);
    const size = ooxml.length.toString(16);

    const unnamed = await key(keyBody('', size, '', 'upload', ooxml), 'application/json');
    const body = (await unnamed.json()) as { format: string; confidence: number; alternatives: Array<{ format: string }>; message: string };
    expect(body.format).toBe('docx');
    expect(body.confidence).toBeLessThanOrEqual(0.5);
    expect(body.alternatives.map((a) => a.format).slice(0, 2)).toEqual(['xlsx', 'pptx']);
    expect(body.message).toContain('fit xlsx, pptx');
    expect(body.message).toContain('name with the right extension decides');

    const byMime = await key(keyBody('', size, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'upload', ooxml), 'application/json');
    expect(await byMime.json()).toMatchObject({ format: 'xlsx' });
    const byName = await key(keyBody('pptx', size, '', 'deck.pptx', ooxml), 'application/json');
    expect(await byName.json()).toMatchObject({ format: 'pptx', extension_matches: true });
    // A PNG fits nothing else: no alternatives.
    const png = await key(keyBody('png', '1a2b', 'image/png', 'a.png', PNG), 'application/json');
    expect(await png.json()).toMatchObject({ format: 'png', alternatives: [] });
  });

  it('key detect: 0xFE inside the header bytes is part of the header', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<html><body>\u00fe\u00fe hi', 'utf16le')]);
    const response = await key(keyBody('html', 'ff', 'text/html', 'page.html', utf16), 'application/json');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ format: 'html', extension_matches: true });
  });

  it('key detect: a malformed body is 400 in the key API shape', async () => {
    for (const body of [Buffer.from('png;1;image/png;a.png;x'), keyBody('png', 'zz', 'image/png', 'a.png', PNG)]) {
      const response = await key(body);
      expect(response.status).toBe(400);
      const error = (await response.json()) as { Status: string; Message: string };
      expect(error.Status).toBe('Error');
      expect(error.Message).toMatch(/^Malformed body/);
    }
    const wrongType = await fetch(`${t.baseUrl}/api/v1/detect_file_type`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(wrongType.status).toBe(400);
    expect(((await wrongType.json()) as { Status: string }).Status).toBe('Error');
  });
});
