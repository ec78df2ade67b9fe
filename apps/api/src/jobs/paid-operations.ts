/** The paid operations of jobs: their routes' names, under which the ledger records each payment with the job id. */
export const CREATE_JOB_OPERATION = 'createConversionJob';
export const PURCHASE_RESULT_OPERATION = 'purchaseConversionResult';
