export enum OutboundErrorCode {
  InvalidUrl = 'invalid_url',
  RefusedScheme = 'refused_scheme',
  RefusedCredentials = 'refused_credentials',
  RefusedPort = 'refused_port',
  /** The host name is on the operator's deny-list. */
  RefusedHost = 'refused_host',
  /** The host is, or resolves to, an address that is not a public destination. */
  RefusedAddress = 'refused_address',
  TooManyRedirects = 'too_many_redirects',
  TooLarge = 'too_large',
  Timeout = 'timeout',
  IdleTimeout = 'idle_timeout',
  /** The name does not resolve, or the connection or TLS handshake fails. */
  Unreachable = 'unreachable',
  /** A status the caller does not accept. */
  HttpStatus = 'http_status',
  /** Not HTTP as it should be: a parse error, a body that does not match its length, a broken or unknown encoding. */
  BadResponse = 'bad_response',
  /** The caller's own signal stopped the request. */
  Aborted = 'aborted',
}

/**
 * Why an outbound request made for a caller was refused or failed. The message is safe to show the caller: it names
 * the kind of address a host resolves to, never the address, so the service's network does not leak through it.
 */
export class OutboundError extends Error {
  constructor(
    readonly code: OutboundErrorCode,
    message: string,
    readonly details: { status?: number } = {},
  ) {
    super(message);
    this.name = 'OutboundError';
  }
}
