import { DomainError } from '../errors/domain-error.js';

export enum ConversionRequestErrorCode {
  /** The bytes show no format an engine here reads (the evidence rule). */
  UnreadableInput = 'unreadable_input',
  NoConversionPath = 'no_conversion_path',
  IdempotencyKeyReused = 'idempotency_key_reused',
  IdempotencyKeyBusy = 'idempotency_key_busy',
}

/** A conversion that cannot be started: refused before any payment is asked for. */
export class ConversionRequestError extends DomainError<ConversionRequestErrorCode> {}
