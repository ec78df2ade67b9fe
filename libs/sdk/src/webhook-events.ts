import type { JWK } from 'jose';
import { type RecordVerifier, VerificationError } from './signed-records.js';

/** What the service POSTs to a job's `webhook_url` when the job ends (docs/webhooks.md). */
export interface WebhookEvent {
  /** The same for every delivery attempt of one event: a receiver that sees it twice handles it once. */
  id: string;
  type: 'conversion.done' | 'conversion.failed';
  created_at: string;
  data: { job_id: string; status: 'done' | 'failed'; [field: string]: unknown };
}

export interface WebhookDelivery {
  /** The request body exactly as received, before any JSON parsing: the signature covers these bytes. */
  body: string | Uint8Array;
  /** The request headers (a Fetch `Headers`, or Node's `IncomingHttpHeaders`). */
  headers: Headers | Record<string, string | string[] | undefined>;
}

export interface VerifyWebhookOptions {
  /** The job this receiver expects the event of: an event of another job is refused. */
  jobId?: string;
  /** How far the delivery's timestamp may be from now, either way; default 300 s. Refuses replays of old deliveries. */
  toleranceSeconds?: number;
  /** Milliseconds since the epoch; the system clock by default. */
  now?: () => number;
}

const DEFAULT_TOLERANCE_SECONDS = 300;

/**
 * Verifies a webhook delivery and returns its event: the `webhook-signature` (Standard Webhooks, `v1a`: Ed25519 over
 * `<webhook-id>.<webhook-timestamp>.<body>`) must hold for the key the service publishes in its did.json under
 * `fileshift-signature-key`, the timestamp must be fresh, the body's id must be the signed id, and its job the one
 * expected. Throws `VerificationError` otherwise.
 */
export async function verifyWebhookDelivery(verifier: RecordVerifier, delivery: WebhookDelivery, options: VerifyWebhookOptions = {}): Promise<WebhookEvent> {
  const header = headerReader(delivery.headers);
  const id = header('webhook-id');
  const timestamp = header('webhook-timestamp');
  const signatures = header('webhook-signature');
  const kid = header('fileshift-signature-key');
  if (!id || !timestamp || !signatures || !kid) {
    throw new VerificationError('A webhook delivery lacks one of webhook-id, webhook-timestamp, webhook-signature and fileshift-signature-key.');
  }
  const toleranceSeconds = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const nowSeconds = (options.now ?? Date.now)() / 1000;
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(nowSeconds - Number(timestamp)) > toleranceSeconds) {
    throw new VerificationError(`A webhook delivery's timestamp is not within ${toleranceSeconds} s of now: a stale or replayed delivery.`);
  }
  const body = typeof delivery.body === 'string' ? new TextEncoder().encode(delivery.body) : delivery.body;
  const signed = concat(new TextEncoder().encode(`${id}.${timestamp}.`), body);
  const key = await importEd25519(await verifier.keyFor(kid));
  const candidates = signatures.split(' ').filter((entry) => entry.startsWith('v1a,'));
  let verified = false;
  for (const candidate of candidates) {
    const signature = base64Bytes(candidate.slice(4));
    if (signature && (await crypto.subtle.verify('Ed25519', key, signature, signed))) verified = true;
  }
  if (!verified) throw new VerificationError(`A webhook delivery's signature does not verify against the service's key ${kid}: it was altered or not sent by the service.`);
  let event: WebhookEvent;
  try {
    event = JSON.parse(new TextDecoder().decode(body)) as WebhookEvent;
  } catch {
    throw new VerificationError('A webhook delivery is signed but its body is not JSON.');
  }
  if (event.id !== id) throw new VerificationError(`A webhook delivery's body is event ${event.id}, its signature event ${id}.`);
  if (options.jobId !== undefined && event.data?.job_id !== options.jobId) {
    throw new VerificationError(`A webhook delivery is the event of job ${event.data?.job_id}, not of job ${options.jobId}.`);
  }
  return event;
}

function headerReader(headers: WebhookDelivery['headers']): (name: string) => string | undefined {
  if (typeof (headers as Headers).get === 'function') return (name) => (headers as Headers).get(name) ?? undefined;
  const lowered = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), Array.isArray(value) ? value.join(' ') : value]));
  return (name) => lowered[name];
}

// No DOM type names here (CryptoKey, JsonWebKey): the SDK also compiles where only Node's types are loaded.
function importEd25519({ kty, crv, x }: JWK) {
  return crypto.subtle.importKey('jwk', { kty, crv, x }, { name: 'Ed25519' }, false, ['verify']);
}

function base64Bytes(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return undefined;
  const binary = atob(text);
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array<ArrayBuffer> {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}
