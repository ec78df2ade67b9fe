/** The largest file either API takes (40 MiB, the spec's limit): uploads, x402 price tiers and key limits stay within it. */
export const MAX_UPLOAD_BYTES = 41_943_040;

/** The most files one job joins (merge PDFs, pictures into a PDF, files into an archive), within MAX_UPLOAD_BYTES together. */
export const MAX_JOIN_FILES = 50;
