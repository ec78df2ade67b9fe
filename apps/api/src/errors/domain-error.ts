/**
 * An error a service throws in its own terms: a code from its feature's enum, a message safe to show, and
 * facts. It knows nothing of HTTP; each API's filter maps the code to a status and the API's error shape.
 */
export abstract class DomainError<C extends string = string> extends Error {
  constructor(
    readonly code: C,
    message: string,
    readonly details?: Record<string, unknown>,
    /** When the caller may try again, in seconds (rate limits, timeouts). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = new.target.name;
  }
}
