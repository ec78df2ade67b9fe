/** The two documented error shapes: the x402 API's `ErrorResponse` and the key API's `{Status, Message}`. */
export interface PublicError {
  status: number;
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

export const KEY_API_PREFIX = '/api/v1/';
export const KEY_API_DOWNLOAD_PREFIX = '/tmp/';

/** The key API (and its download path) answers `{Status: "Error", Message}`; everything else the ErrorResponse shape. */
export function errorBodyFor(path: string, error: PublicError): Record<string, unknown> {
  if (path.startsWith(KEY_API_PREFIX) || path.startsWith(KEY_API_DOWNLOAD_PREFIX)) {
    return { Status: 'Error', Message: error.message };
  }
  return { error: { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) } };
}
