import { DomainError } from '../errors/domain-error.js';

export enum JobErrorCode {
  InvalidJobId = 'invalid_job_id',
  InvalidWait = 'invalid_wait',
  NotFound = 'job_not_found',
  Deleted = 'job_deleted',
  Expired = 'job_expired',
  ResultNotReady = 'result_not_ready',
  ConversionFailed = 'conversion_failed',
  PurchaseInProgress = 'purchase_in_progress',
  DownloadNotFound = 'download_not_found',
  DownloadExpired = 'download_expired',
  ResultMissing = 'result_missing',
}

/** A job (or its result) that cannot be shown, bought or downloaded as asked. */
export class JobError extends DomainError<JobErrorCode> {}
