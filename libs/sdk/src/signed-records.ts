import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { compactVerify, decodeProtectedHeader, importJWK, type JWK } from 'jose';

/** A signed x402 receipt (offer-receipt extension), verified: the service vouches that this payment was made for this resource. */
export interface SignedReceipt {
  /** The compact JWS as the service sent it: keep it to prove the receipt to anyone. */
  jws: string;
  kid: string;
  resourceUrl: string;
  payer: string;
  network: string;
  /** The settlement's transaction (the service names it). */
  transaction?: string;
  /** Seconds since the epoch. */
  issuedAt: number;
}

export interface DeliveredFile {
  filename: string;
  sha256: string;
  sizeBytes: number;
}

/**
 * A sold result's delivery record, verified: what was converted, what was delivered, by which engines, for which
 * payment — signed by the service. The same for every download of the result.
 */
export interface DeliveryRecord {
  jws: string;
  kid: string;
  version: number;
  type: 'fileshift.delivery-record';
  issuedAt: number;
  resourceUrl: string;
  jobId: string;
  input: { format: string; sha256: string; sizeBytes: number };
  /** The sold file; `files` lists the files inside it when it is a ZIP of pages. */
  output: DeliveredFile & { format: string; mimeType: string; files?: DeliveredFile[] };
  plan: Array<{ engine: string; version: string | null; from: string; to: string }>;
  payment: { scheme: string; network: string; asset: string; payTo: string; amount: string; payer: string | null; transaction: string; settledAt: string };
}

/** A signed record that does not verify (altered, or signed by a key the service does not publish), or a download that is not what its record says. */
export class VerificationError extends Error {
  override readonly name = 'VerificationError';
  /** Set when convertFile failed after starting a job (ConversionRef). */
  declare jobId?: string;
  declare idempotencyKey?: string;
}

interface DidDocument {
  id: string;
  verificationMethod?: Array<{ id: string; publicKeyJwk?: JWK }>;
  assertionMethod?: Array<string | { id: string }>;
}

/**
 * Verifies the service's signed records against its `/.well-known/did.json` (did:web): the kid must name one of the
 * document's assertion keys and the signature must hold. The document is read once, and again when a record names
 * a key it does not have (the service rotated its key).
 */
export function recordVerifier(baseUrl: string, fetch: typeof globalThis.fetch) {
  let document: Promise<DidDocument> | undefined;
  const load = () => {
    const loading = fetch(`${baseUrl}/.well-known/did.json`).then(async (response) => {
      if (!response.ok) throw new VerificationError(`The service's DID document could not be read (HTTP ${response.status}).`);
      return (await response.json()) as DidDocument;
    });
    // A failed read is not kept: the next record reads it again.
    loading.catch(() => (document = undefined));
    return (document = loading);
  };
  const keyOf = (doc: DidDocument, kid: string): JWK | undefined => {
    const asserting = (doc.assertionMethod ?? []).some((method) => (typeof method === 'string' ? method : method.id) === kid);
    return asserting ? doc.verificationMethod?.find((method) => method.id === kid)?.publicKeyJwk : undefined;
  };

  /** The public key (JWK) the service publishes as an assertion key under `kid`; read again once when it is not there (a rotated key). */
  async function keyFor(kid: string): Promise<JWK> {
    const key = keyOf(await (document ?? load()), kid) ?? keyOf(await load(), kid);
    if (!key) throw new VerificationError(`A signed record names a key the service does not publish: ${kid}`);
    return key;
  }

  async function verify<T>(jws: string): Promise<T & { jws: string; kid: string }> {
    let kid: string | undefined;
    try {
      kid = decodeProtectedHeader(jws).kid;
    } catch {
      throw new VerificationError('A signed record is not a compact JWS.');
    }
    if (!kid) throw new VerificationError('A signed record names no key (kid).');
    const key = await keyFor(kid);
    try {
      const { payload } = await compactVerify(jws, await importJWK(key, 'EdDSA'));
      return { ...(JSON.parse(new TextDecoder().decode(payload)) as T), jws, kid };
    } catch {
      throw new VerificationError(`A signed record does not verify against the service's key ${kid}: it was altered or not signed by the service.`);
    }
  }
  return { verify, keyFor };
}

export type RecordVerifier = ReturnType<typeof recordVerifier>;

/** Throws unless `bytes` are the file the record says was delivered (its SHA-256 and size). */
export function checkDelivered(record: DeliveryRecord, bytes: Uint8Array): void {
  checkDigest(record, bytesToHex(sha256(bytes)), bytes.length);
}

/** The stream of a delivered file, failing at its end unless its bytes are the file the record says was delivered. */
export function checkingDelivered(record: DeliveryRecord, stream: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const hash = sha256.create();
  let size = 0;
  return stream.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        hash.update(chunk);
        size += chunk.length;
        controller.enqueue(chunk);
      },
      flush() {
        checkDigest(record, bytesToHex(hash.digest()), size);
      },
    }),
  );
}

function checkDigest(record: DeliveryRecord, sha256Hex: string, sizeBytes: number): void {
  if (sha256Hex !== record.output.sha256 || sizeBytes !== record.output.sizeBytes) {
    throw new VerificationError(
      `The downloaded file is not the one the delivery record of job ${record.jobId} names (SHA-256 ${sha256Hex}, ${sizeBytes} bytes; the record says ${record.output.sha256}, ${record.output.sizeBytes} bytes).`,
    );
  }
}
