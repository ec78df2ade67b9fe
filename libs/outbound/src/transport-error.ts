import { OutboundError, OutboundErrorCode } from './outbound-error.js';

/**
 * The domain error for whatever Node's HTTP stack, TLS or zlib threw. Our own refusals pass through; the rest say
 * what went wrong in words safe for the caller (no address, no internal detail).
 */
export function toOutboundError(error: unknown, { responseStarted }: { responseStarted: boolean }): OutboundError {
  if (error instanceof OutboundError) return error;
  const code = (error as { code?: unknown } | undefined)?.code;
  const text = typeof code === 'string' ? code : '';
  if (text.startsWith('HPE_')) return new OutboundError(OutboundErrorCode.BadResponse, 'The server sent a malformed HTTP response (for one, a body longer than its Content-Length)');
  if (text.startsWith('Z_') || text.startsWith('ERR__') || text === 'ERR_BROTLI_DECOMPRESSION_FAILED' || text.startsWith('ERR_ZLIB')) {
    return new OutboundError(OutboundErrorCode.BadResponse, 'The response body is not valid in its declared encoding');
  }
  if (responseStarted) return new OutboundError(OutboundErrorCode.BadResponse, 'The response ended before its body was complete');
  if (text.startsWith('ERR_TLS') || text.includes('CERT') || text.includes('SSL') || text === 'EPROTO') {
    return new OutboundError(OutboundErrorCode.Unreachable, 'The TLS connection failed: the certificate does not verify for this host');
  }
  return new OutboundError(OutboundErrorCode.Unreachable, 'Could not connect to the host');
}
