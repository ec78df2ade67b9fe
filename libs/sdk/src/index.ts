export { ApiError, JobFailedError, type PaymentChallenge, PaymentRequiredError, RateLimitedError, SpendLimitError, TimeoutError } from './errors.js';
export {
  type ClientOptions,
  type ConversionJobAccepted,
  type ConvertedFile,
  type ConvertFileOptions,
  createClient,
  type DetectFileTypeResponse,
  type FileshiftClient,
  type JobStatus,
  type JobStatusDone,
  type OutputFormatsByType,
  type PurchasedConversionResult,
  type WithReceipt,
} from './client.js';
export type { FileData, FileInput } from './file-input.js';
export type { components, paths } from './generated/openapi.js';
export { createPayer, type Payer, type PayerOptions, type SignedPayment, type SpentStore } from './payer.js';
export type { PaymentReceipt } from './receipts.js';
export { checkSpend, formatUsdc, parseUsdc, type PaymentRequest, type SpendDecision, type SpendLimit, type SpendLimits } from './spend-policy.js';
