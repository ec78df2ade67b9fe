/** The limits a key API caller works under: a key's own, or the no-key defaults per client IP. */
export interface KeyApiLimits {
  requestsPerMinute: number;
  /** Requests per UTC day. */
  dailyQuota: number;
  maxUploadBytes: number;
}
