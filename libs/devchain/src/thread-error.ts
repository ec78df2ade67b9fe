import { FacilitatorResponseError } from '@x402/core/server';
import { SettleError, VerifyError } from '@x402/core/types';

/** An error as it crosses between threads: what callers tell errors apart by, down its `cause` chain. */
export interface ThreadError {
  name: string;
  message: string;
  code?: string;
  /** VerifyError / SettleError: the status and the facilitator's answer they were made from. */
  statusCode?: number;
  response?: Record<string, unknown>;
  cause?: ThreadError;
}

const MAX_CAUSES = 8;

/** What of `error` can cross a thread: its name, message, code, the facilitator's answer, and its causes. */
export function toThreadError(error: unknown, depth = 0): ThreadError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const carried: ThreadError = { name: error.name, message: error.message };
  const { code, cause } = error as { code?: unknown; cause?: unknown };
  if (typeof code === 'string') carried.code = code;
  if (error instanceof VerifyError) {
    carried.statusCode = error.statusCode;
    carried.response = { isValid: false, invalidReason: error.invalidReason, invalidMessage: error.invalidMessage, payer: error.payer };
  } else if (error instanceof SettleError) {
    carried.statusCode = error.statusCode;
    carried.response = { success: false, errorReason: error.errorReason, errorMessage: error.errorMessage, payer: error.payer, transaction: error.transaction, network: error.network };
  }
  if (cause !== undefined && depth < MAX_CAUSES) carried.cause = toThreadError(cause, depth + 1);
  return carried;
}

/** The error again on this side: the x402 classes as themselves, any other as an Error with the same name, message and code. */
export function fromThreadError(carried: ThreadError): Error {
  let error: Error;
  if (carried.name === 'VerifyError' && carried.response) error = new VerifyError(carried.statusCode ?? 400, carried.response as never);
  else if (carried.name === 'SettleError' && carried.response) error = new SettleError(carried.statusCode ?? 400, carried.response as never);
  else if (carried.name === 'FacilitatorResponseError') error = new FacilitatorResponseError(carried.message);
  else {
    error = carried.name === 'TypeError' ? new TypeError(carried.message) : new Error(carried.message);
    error.name = carried.name;
  }
  if (carried.code !== undefined) (error as Error & { code?: string }).code = carried.code;
  if (carried.cause) error.cause = fromThreadError(carried.cause);
  return error;
}
