export { AFTER_SETTLEMENT_RETRIES, type RetryOptions, withRetries } from './with-retries.js';
