import { DomainError } from '../errors/domain-error.js';

export enum UploadErrorCode {
  NotMultipart = 'upload_not_multipart',
  Malformed = 'upload_malformed',
  TooLarge = 'upload_too_large',
  /** More file parts than one job takes. */
  TooManyFiles = 'upload_too_many_files',
  MissingFile = 'upload_missing_file',
  EmptyFile = 'upload_empty_file',
}

/** A multipart upload that cannot be taken as it is. */
export class UploadError extends DomainError<UploadErrorCode> {}
