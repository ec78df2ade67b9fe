import type { PaidRoute } from '@fileshift/x402-nest';

/** The paid operations: their routes' names, under which the ledger records each payment (with the job id for jobs). */
export const DETECT_FILE_TYPE_OPERATION = 'detectFileType';
export const CREATE_JOB_OPERATION = 'createConversionJob';
export const PURCHASE_RESULT_OPERATION = 'purchaseConversionResult';

/**
 * Each paid route as its challenge describes it: the routes declare these, and /.well-known/x402.json publishes the
 * challenges built from the same ones.
 */
export const PAID_ROUTES = {
  [DETECT_FILE_TYPE_OPERATION]: { name: DETECT_FILE_TYPE_OPERATION, description: 'Detect the real format of a file from its name, size and first 200 bytes.' },
  [CREATE_JOB_OPERATION]: { name: CREATE_JOB_OPERATION, description: 'Upload a file and start an asynchronous conversion job.' },
  [PURCHASE_RESULT_OPERATION]: { name: PURCHASE_RESULT_OPERATION, description: 'Buy the result of a finished conversion; returns a download URL valid for one hour.' },
} as const satisfies Record<string, PaidRoute>;

/** The paid route of an operation id; undefined for an operation that is not paid. */
export function paidRouteOf(operationId: string): PaidRoute | undefined {
  return (PAID_ROUTES as Record<string, PaidRoute | undefined>)[operationId];
}
