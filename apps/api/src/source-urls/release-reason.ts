import { DomainError } from '../errors/domain-error.js';

/**
 * Why a payment collected for a request that names a source URL was released, as the ledger records it: the domain
 * error's code and, for a fetch, the guard's reason (`source_url_failed:unreachable`).
 */
export function releaseReasonOf(error: unknown): string {
  if (!(error instanceof DomainError)) return 'request_failed';
  const reason = error.details?.reason;
  return typeof reason === 'string' ? `${error.code}:${reason}` : error.code;
}
