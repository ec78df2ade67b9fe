/** The spec's failure_type values. */
export const FAILURE_TYPES = [
  'unsupported_or_corrupt_input',
  'unsupported_output_format',
  'file_too_large',
  'security_rejected',
  'provider_error',
  'timeout',
  'unknown',
] as const;

export type FailureType = (typeof FAILURE_TYPES)[number];

/** A conversion that did not succeed, with a message safe to show (no paths, no stack). */
export class ConversionError extends Error {
  constructor(
    readonly failureType: FailureType,
    message: string,
    /** A transient failure worth another attempt (e.g. an engine process that crashed). */
    readonly retryable = false,
    /** Engine diagnostics (stderr tail) for the log only, never for the client. */
    public diagnostics?: string,
  ) {
    super(message);
    this.name = 'ConversionError';
  }
}
