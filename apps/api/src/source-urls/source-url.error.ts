import { type OutboundError, OutboundErrorCode } from '@fileshift/outbound';
import { DomainError } from '../errors/domain-error.js';

export enum SourceUrlErrorCode {
  /** The guard refused the URL, a redirect, or an address a host resolves to. */
  Refused = 'source_url_refused',
  /** The fetch failed: unreachable, too slow, an error status, a broken answer. */
  Failed = 'source_url_failed',
  /** The file is larger than the request's limit. */
  TooLarge = 'source_url_too_large',
  /** This process already fetches as many source URLs as it may; nothing was charged. */
  Busy = 'source_url_busy',
}

const REFUSED = new Set<OutboundErrorCode>([
  OutboundErrorCode.InvalidUrl,
  OutboundErrorCode.RefusedScheme,
  OutboundErrorCode.RefusedCredentials,
  OutboundErrorCode.RefusedPort,
  OutboundErrorCode.RefusedHost,
  OutboundErrorCode.RefusedAddress,
  OutboundErrorCode.TooManyRedirects,
]);

/** Why a request's `source_url` gave no file. `details.reason` is the guard's code (docs/outbound-guard.md). */
export class SourceUrlError extends DomainError<SourceUrlErrorCode> {
  /** The guard's refusal or failure in the API's terms; its message is the guard's, which never shows an address. */
  static of(error: OutboundError, maxBytes: number): SourceUrlError {
    const details = { field: 'source_url', reason: error.code, ...(error.details.status === undefined ? {} : { status: error.details.status }) };
    if (error.code === OutboundErrorCode.TooLarge) return SourceUrlError.tooLarge(maxBytes);
    const code = REFUSED.has(error.code) ? SourceUrlErrorCode.Refused : SourceUrlErrorCode.Failed;
    return new SourceUrlError(code, `The source_url gave no file: ${lowerFirst(error.message)}`, details);
  }

  static tooLarge(maxBytes: number): SourceUrlError {
    return new SourceUrlError(SourceUrlErrorCode.TooLarge, `The file at source_url is larger than the limit of ${maxBytes} bytes.`, {
      field: 'source_url',
      reason: OutboundErrorCode.TooLarge,
      max_bytes: maxBytes,
    });
  }
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);
