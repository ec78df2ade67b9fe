export {
  ApiError,
  ConversionInterruptedError,
  type ConversionRef,
  type FailureType,
  JobFailedError,
  NetworkError,
  type PaymentChallenge,
  PaymentRequiredError,
  RateLimitedError,
  SpendLimitError,
  TimeoutError,
} from './errors.js';
export { type ClientOptions, createClient, type FileshiftClient } from './client.js';
export type { Clock } from './clock.js';
export type { WithReceipt } from './client-context.js';
export type {
  ConversionJobAccepted,
  ConversionOptions,
  ConversionTarget,
  DetectFileOptions,
  DetectFileTypeResponse,
  FormatCatalogue,
  JobStatus,
  JobStatusDone,
  BoughtResult,
  PurchasedConversionResult,
} from './x402-api.js';
export { TARGET_FORMATS, type TargetFormat } from './generated/target-formats.js';
export { isTargetFormat } from './target-format.js';
export type { ConvertedFile, ConvertFileOptions, ResultForm } from './convert-file.js';
export type { JobStatusWithWait, WaitForJobOptions } from './job-polling.js';
export type { DetectOptions, KeyApiConvertRequest, KeyApiDetection, OutputFormatsByType } from './key-api.js';
export { type FileData, type FileInput, type JoinedFiles, MAX_JOIN_FILES, type SourceUrl } from './file-input.js';
export type { components, paths } from './generated/openapi.js';
export { createPayer, type Payer, type PayerOptions, type SignedPayment, type SpentStore } from './payer.js';
export { newPaymentIdentifier, PAYMENT_IDENTIFIER_HEADER } from './payment-identifier.js';
export type { PaymentReceipt, SettlementReceipt } from './receipts.js';
export { checkDelivered, type DeliveredFile, type DeliveryRecord, recordVerifier, type SignedReceipt, VerificationError } from './signed-records.js';
export { checkSpend, describeAllowed, formatUsdc, parseUsdc, type PaymentRequest, type SpendDecision, type SpendLimit, type SpendLimits } from './spend-policy.js';
export { conversionPlan } from './conversion-plan.js';
export { callPaidTool, MCP_PAYMENT_META, MCP_PAYMENT_RESPONSE_META, type PaidToolCall, type PaidToolResult, paymentRequiredOf, type ToolCaller, type ToolResult } from './mcp-payments.js';
export { verifyWebhookDelivery, type VerifyWebhookOptions, type WebhookDelivery, type WebhookEvent } from './webhook-events.js';
export { pricesOf, resultPriceFor, type PriceDiscovery, type ServicePrices } from './service-prices.js';
export { approvingPlanned, checkPlan, describePlan, planTotal, type SpendPlan } from './spend-plan.js';
