/** The paid operations: their routes' names, under which the ledger records each payment (with the job id for jobs). */
export const DETECT_FILE_TYPE_OPERATION = 'detectFileType';
export const CREATE_JOB_OPERATION = 'createConversionJob';
export const PURCHASE_RESULT_OPERATION = 'purchaseConversionResult';
