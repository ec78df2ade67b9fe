/** A fresh Idempotency-Key (8..128 characters, as the API wants). */
export function newIdempotencyKey(): string {
  return `fsdk-${crypto.randomUUID()}`;
}
