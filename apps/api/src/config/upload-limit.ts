/** The largest file either API takes (40 MiB, the spec's limit): uploads, x402 price tiers and key limits stay within it. */
export const MAX_UPLOAD_BYTES = 41_943_040;
