import { Injectable } from '@nestjs/common';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { DetectFileTypeResponseSchema, HEADER_SAMPLE_BYTES, parseDetectFileTypeRequest } from '../detection/detect-file-type.schemas.js';
import { DETECT_FILE_TYPE_OPERATION, PAID_ROUTES } from '../payments/paid-operations.js';
import { PaidDetectionService } from '../x402-api/paid-detection.service.js';
import type { McpTool, ToolCall } from './mcp-tool.js';
import { ToolPayments } from './tool-payments.js';
import { toolResult } from './tool-results.js';

const PATH = '/api/x402/v1/detect-file-type';

/** POST /api/x402/v1/detect-file-type as a tool: the same arguments as its JSON body, the same price and answer. */
@Injectable()
export class DetectFileTypeTool implements McpTool {
  readonly name = 'detect_file_type';
  readonly title = 'Detect a file type';
  readonly description =
    `Detect the likely real format of a file (paid per call, x402 exact, the price of POST ${PATH}). Either describe the file ` +
    `(filename, size_bytes, header_first_200_bytes_base64: the first ${HEADER_SAMPLE_BYTES} bytes) or give its source_url for the ` +
    'service to fetch. Called without payment it answers the x402 challenge (isError, PaymentRequired in structuredContent); ' +
    'call again with the PaymentPayload in _meta["x402/payment"]. Nothing is settled for a request that cannot succeed.';
  readonly paid = true;
  readonly annotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };
  readonly inputSchema = z.object({
    filename: z.string().optional().describe('The file name (required with the first bytes; a hint with source_url).'),
    size_bytes: z.number().int().min(0).optional().describe('Size of the whole file in bytes (with the first bytes).'),
    header_first_200_bytes_base64: z.string().optional().describe(`Base64 of the first ${HEADER_SAMPLE_BYTES} bytes of the file; all of it if shorter.`),
    created_at: z.string().optional().describe('File creation time, RFC 3339 (with the first bytes).'),
    source_url: z.string().optional().describe('Instead of the bytes: an http(s) URL the service fetches (through its outbound guard) after the payment is verified.'),
  });
  readonly outputSchema = DetectFileTypeResponseSchema;

  constructor(
    private readonly detection: PaidDetectionService,
    private readonly payments: ToolPayments,
  ) {}

  async run(args: Record<string, unknown>, call: ToolCall): Promise<CallToolResult> {
    // The arguments are the HTTP body: one request has one payment-identifier fingerprint on either transport.
    const paid = this.payments.of(call, { route: PAID_ROUTES[DETECT_FILE_TYPE_OPERATION], method: 'POST', path: PATH, routePattern: PATH, body: args });
    const detected = await this.detection.detect(parseDetectFileTypeRequest(args), paid.payment);
    const format = detected.detected_format;
    const text = format ? `Detected ${format.format} (${format.description}, ${format.confidence_percent} %).` : 'No format detected.';
    return toolResult(detected, { text, meta: paid.meta() });
  }
}
