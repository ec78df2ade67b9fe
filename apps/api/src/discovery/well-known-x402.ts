import type { PaidResource } from './paid-resources.js';

/** /.well-known/x402.json: the paid resources with their prices (networks, assets and payTo join with payments). */
export function renderWellKnownX402(input: { baseUrl: string; version: string; resources: PaidResource[] }) {
  return {
    x402Version: 2,
    service: 'fileshift',
    version: input.version,
    openapi: `${input.baseUrl}/openapi.json`,
    resources: input.resources.map((r) => ({
      resource: `${input.baseUrl}${r.path}`,
      method: r.method,
      operationId: r.operationId,
      description: r.description,
      price: r.price,
    })),
  };
}
