import { Logger } from '@nestjs/common';

const logger = new Logger('x402');

/** A facilitator error the client heard only as `invalid_payload`: the details belong in our log. */
export function logRefusedFacilitatorError(operation: 'verify' | 'settle', error: unknown): void {
  logger.warn(`facilitator ${operation} failed on a payment; refused it as invalid_payload: ${error instanceof Error ? error.message : String(error)}`);
}
