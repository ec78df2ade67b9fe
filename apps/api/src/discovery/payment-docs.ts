import type { OpenAPIObject } from '@nestjs/swagger';
import type { AcceptedPayment } from '@fileshift/x402-nest';
import { schemaRef } from '../http-kit/api-schema-registry.js';
import { PaymentRequiredSchema } from '../payments/payment-challenge.schemas.js';
import type { PaidResource } from './paid-resources.js';

type Operation = Record<string, any>;

/**
 * Adds what a paying client needs to each paid operation: the `x-payment-info` extension (price and
 * the x402 ways to pay), the payment request headers, the 402 challenge response, and the
 * PAYMENT-RESPONSE receipt header of the success response.
 */
export function addPaymentDocs(document: OpenAPIObject, resources: PaidResource[], accepts: readonly AcceptedPayment[]): void {
  const operations = new Map<string, Operation>();
  for (const pathItem of Object.values(document.paths)) {
    for (const operation of Object.values(pathItem as Record<string, Operation>)) {
      if (operation && typeof operation === 'object' && operation.operationId) operations.set(operation.operationId, operation);
    }
  }
  for (const resource of resources) {
    const operation = operations.get(resource.operationId);
    if (!operation) continue;
    operation['x-payment-info'] = paymentInfo(resource, accepts);
    operation.parameters = [
      ...(operation.parameters ?? []),
      {
        name: 'PAYMENT-SIGNATURE',
        in: 'header',
        required: false,
        description: 'x402 v2 payment payload, base64-encoded JSON. Send it on the retry after a 402.',
        schema: { type: 'string' },
      },
      {
        name: 'X-PAYMENT',
        in: 'header',
        required: false,
        description: 'Legacy x402 payment header (v1 or v2 payload, base64-encoded JSON).',
        schema: { type: 'string' },
      },
    ];
    operation.responses['402'] = {
      description: 'Payment required, or the payment was refused (the reason is in `error`).',
      headers: {
        'PAYMENT-REQUIRED': { description: 'The challenge, base64-encoded JSON.', schema: { type: 'string' } },
      },
      content: { 'application/json': { schema: schemaRef(PaymentRequiredSchema) } },
    };
    for (const [status, response] of Object.entries(operation.responses as Record<string, Operation>)) {
      if (status.startsWith('2')) {
        response.headers = {
          ...response.headers,
          'PAYMENT-RESPONSE': { description: 'Settlement receipt, base64-encoded JSON (transaction, network, payer).', schema: { type: 'string' } },
          'Server-Timing': {
            description: 'How long the facilitator took with this payment, in milliseconds: `x402-verify;dur=…, x402-settle;dur=…`. Absent when an earlier settlement is answered again.',
            schema: { type: 'string' },
          },
        };
      }
    }
  }
}

function paymentInfo(resource: PaidResource, accepts: readonly AcceptedPayment[]) {
  const price = resource.price;
  return {
    price:
      price.mode === 'fixed'
        ? { mode: 'fixed', currency: price.currency, amount: price.amount }
        : { mode: 'dynamic', currency: price.currency, min: price.min, max: price.max },
    protocols: accepts.map((accepted) => ({
      x402: {
        scheme: accepted.scheme,
        network: accepted.network,
        asset: accepted.asset,
        payTo: accepted.payTo,
        ...(price.mode === 'fixed' ? { amount: price.atomic_units } : {}),
      },
    })),
  };
}
