import type { AvailableConversions } from './available-conversions.js';
import type { PaidResource } from './paid-resources.js';
import { describePrice, X402_PREFIX } from './paid-resources.js';

/** llms.txt: a plain summary an agent can read before calling the API. */
export function renderLlmsTxt(input: { baseUrl: string; resources: PaidResource[]; convertWaitSeconds: number; conversions: AvailableConversions }): string {
  const conversions = Object.entries(input.conversions.from).map(([source, targets]) => `- ${source} → ${targets.join(', ')}`).join('\n') || '- none: no worker is running';
  const paid = input.resources.map((r) => `- ${r.method} ${input.baseUrl}${r.path} — ${r.description} Price: ${describePrice(r.price)}.`).join('\n');
  return `# Fileshift

> File-type detection and file conversion. Pay per call with x402 (USDC, scheme "exact"); no account needed.
> A second API under /api/v1 authenticates with an Api-Key header.

## Paid operations (x402)

${paid}

Call a paid operation without payment to receive HTTP 402 with the challenge (PAYMENT-REQUIRED header, base64,
and the same facts as JSON in the body: x402Version, accepts). Retry with the signed payment in the
PAYMENT-SIGNATURE header (the legacy X-PAYMENT header is accepted too). To upload once, sign before the first
request: ${input.baseUrl}/.well-known/x402.json publishes each fixed-price operation's challenge as resources[].paymentRequired.

## Free operations

- GET ${input.baseUrl}${X402_PREFIX}/convert-file/{job_id}/status — job status; job_id is the access key. Poll every retry_after_seconds.
- DELETE ${input.baseUrl}${X402_PREFIX}/convert-file/{job_id}/delete — remove the job and its files now.
- GET ${input.baseUrl}${X402_PREFIX}/health — liveness; GET ${input.baseUrl}${X402_PREFIX}/health/ready — readiness.

## Conversion flow

1. POST convert-file (multipart: file, target_format, filename, created_at, size_bytes; optional options part (JSON, see ConversionOptions in the OpenAPI document) and Idempotency-Key header) → 202 {job_id, status_url, retry_after_seconds}.
2. GET status_url until status is done or failed.
3. GET result_url, pay the 402 challenge → {download_url} (valid 1 hour).
4. GET download_url (a ZIP of the pages when the conversion wrote several files, e.g. pdf → png).

## Conversions available now (${input.conversions.pairs} pairs on the running workers' engines: ${input.conversions.engines.join(', ') || 'none'})

${conversions}

## Key API (/api/v1, header Api-Key; without it low testing limits apply per IP)

1. POST ${input.baseUrl}/api/v1/upload (multipart part file) → {Status: "OK", Filename}.
2. POST ${input.baseUrl}/api/v1/convert {filename, ext_in, ext_out, options?} → waits up to ${input.convertWaitSeconds} s → {Status: "OK", file: {ext_out, urls: ["/tmp/…"]}} (one URL per page when the conversion wrote several files).
3. GET ${input.baseUrl}/tmp/… (no key needed; valid 24 hours).
Also: POST /api/v1/list_ext_out and /api/v1/list_ext_out_by_type {ext_in}; POST /api/v1/detect_file_type (binary body).
Errors: {Status: "Error", Message}; 401 bad key, 429 limit (Retry-After).

## Documents

- ${input.baseUrl}/openapi.json (OpenAPI 3.1; also /openapi.yaml)
- ${input.baseUrl}/.well-known/x402.json
- ${input.baseUrl}/.well-known/did.json (the key that signs x402 offers, receipts and delivery records: verify them with any JOSE library)
`;
}
