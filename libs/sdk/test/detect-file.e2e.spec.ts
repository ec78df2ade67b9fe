import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { type LiveService, startLiveService } from '@fileshift/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../src/index.js';
import { detectFileAtPath } from '../src/node/index.js';
import { anvilPayerAccount, devChainPayer, recordingFetch, tinyPng } from './support/dev-chain.js';

const SIZE = 5_000;
const CHUNK = 100;
/** A PNG followed by bytes that differ at every offset, so any other 200 bytes than the first would show. */
const bigPng = Uint8Array.from({ length: SIZE }, (_, index) => tinyPng()[index] ?? index % 251);
const FIRST_200 = Buffer.from(bigPng.subarray(0, 200)).toString('base64');

/** A web stream of bigPng in 100-byte chunks that notes how much was pulled and whether it was cancelled. */
function observedWebStream() {
  const seen = { pulledBytes: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (seen.pulledBytes >= SIZE) return controller.close();
      controller.enqueue(bigPng.slice(seen.pulledBytes, seen.pulledBytes + CHUNK));
      seen.pulledBytes += CHUNK;
    },
    cancel: () => void (seen.cancelled = true),
  });
  return { stream, seen };
}

describe('detectFile sends the first 200 bytes and the size, reading no more than it needs (live service, dev chain)', () => {
  const account = anvilPayerAccount(6);
  let service: LiveService;
  let dir: string;

  beforeAll(async () => {
    service = await startLiveService();
    dir = mkdtempSync(join(tmpdir(), 'sdk-detect-'));
  });
  afterAll(async () => {
    await service?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A paying client and the detection request it signed (the paid retry of the 402). */
  const detecting = () => {
    const recorder = recordingFetch();
    const client = createClient({ baseUrl: service.baseUrl, payer: devChainPayer(service.devChain, account), fetch: recorder.fetch });
    return { client, requests: recorder.requests, sent: () => recorder.requests.find((request) => request.signed)?.json };
  };

  it('a Blob over 200 bytes: exactly its first 200 bytes and its size are sent', async () => {
    const { client, sent } = detecting();
    const detected = await client.detectFile({ data: new Blob([bigPng]), filename: 'big.png' });
    expect(detected.detected_format?.format).toBe('png');
    expect(sent()).toMatchObject({ filename: 'big.png', size_bytes: SIZE, header_first_200_bytes_base64: FIRST_200 });
  });

  it('a File: its own name and time are sent', async () => {
    const { client, sent } = detecting();
    const lastModified = Date.UTC(2024, 4, 1, 8, 30);
    await client.detectFile(new File([bigPng], 'photo.png', { lastModified }));
    expect(sent()).toEqual({ filename: 'photo.png', created_at: new Date(lastModified).toISOString(), size_bytes: SIZE, header_first_200_bytes_base64: FIRST_200 });
  });

  it('a web ReadableStream with sizeBytes: read up to 200 bytes, then cancelled', async () => {
    const { client, sent } = detecting();
    const { stream, seen } = observedWebStream();
    const detected = await client.detectFile({ data: stream, filename: 'streamed.png', sizeBytes: SIZE });
    expect(detected.detected_format?.format).toBe('png');
    expect(sent()).toMatchObject({ size_bytes: SIZE, header_first_200_bytes_base64: FIRST_200 });
    expect(seen.cancelled).toBe(true);
    expect(seen.pulledBytes).toBeLessThan(SIZE);
  });

  it('a Node Readable with sizeBytes: read up to 200 bytes, then destroyed', async () => {
    const { client, sent } = detecting();
    let produced = 0;
    const readable = Readable.from(
      (function* chunks() {
        for (; produced < SIZE; produced += CHUNK) yield Buffer.from(bigPng.subarray(produced, produced + CHUNK));
      })(),
    );
    await client.detectFile({ data: readable, filename: 'node-stream.png', sizeBytes: SIZE });
    expect(sent()).toMatchObject({ size_bytes: SIZE, header_first_200_bytes_base64: FIRST_200 });
    expect(readable.destroyed).toBe(true);
    expect(produced).toBeLessThan(SIZE);
  });

  it('a stream without sizeBytes is read to its end to count it', async () => {
    const { client, sent } = detecting();
    const { stream, seen } = observedWebStream();
    await client.detectFile({ data: stream, filename: 'counted.png' });
    expect(sent()).toMatchObject({ size_bytes: SIZE, header_first_200_bytes_base64: FIRST_200 });
    expect(seen.pulledBytes).toBe(SIZE);
  });

  it('a path, with the /node entry: its name, size and first 200 bytes', async () => {
    const { client, sent } = detecting();
    const path = join(dir, 'on-disk.png');
    writeFileSync(path, bigPng);
    const detected = await detectFileAtPath(client, path);
    expect(detected.detected_format?.format).toBe('png');
    expect(sent()).toMatchObject({ filename: 'on-disk.png', size_bytes: SIZE, header_first_200_bytes_base64: FIRST_200 });
  });

  it('an abort while the stream is read: rejects with the reason, cancels the stream, sends nothing', async () => {
    const { client, requests } = detecting();
    const controller = new AbortController();
    let cancelled = false;
    // One chunk, then no more data until cancelled: only the abort can end the read.
    const stalling = new ReadableStream<Uint8Array>({
      start: (streamController) => streamController.enqueue(bigPng.slice(0, CHUNK)),
      cancel: () => void (cancelled = true),
    });
    const detection = client.detectFile({ data: stalling, filename: 'stalled.png', sizeBytes: SIZE }, { signal: controller.signal });
    controller.abort(new Error('stopped by the test'));
    await expect(detection).rejects.toThrow('stopped by the test');
    expect(cancelled).toBe(true);
    expect(requests).toEqual([]);
  });
});
