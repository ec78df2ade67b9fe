/** Reflect-metadata key under which `@Paid` stores its options. */
export const PAID_ROUTE_METADATA = 'x402:paid-route';
