import { Injectable } from '@nestjs/common';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { validated } from '../errors/request-validation.error.js';
import { PAID_ROUTES, PURCHASE_RESULT_OPERATION } from '../payments/paid-operations.js';
import { ResultPurchaseService } from '../x402-api/result-purchase.service.js';
import { PurchasedConversionResultSchema } from '../x402-api/result.schemas.js';
import type { McpTool, ToolCall } from './mcp-tool.js';
import { ToolPayments } from './tool-payments.js';
import { toolResult } from './tool-results.js';

const ROUTE_PATTERN = '/api/x402/v1/convert-file/:job_id/result';

/**
 * GET /api/x402/v1/convert-file/{job_id}/result as a tool: the same price (by the input's size), the same purchase
 * (bought once, the download URL again for free after), the download URL as a resource link and the signed delivery
 * record with its fields.
 */
@Injectable()
export class PurchaseResultTool implements McpTool {
  readonly name = 'purchase_result';
  readonly title = 'Buy a conversion result';
  readonly description =
    'Buy the result of a finished conversion (paid per call, priced by the input size as GET .../result). Answers a download URL ' +
    '(a resource_link, valid one hour) and the signed delivery record: the SHA-256 of what the URL serves, checkable against ' +
    '/.well-known/did.json. Once bought, later calls answer a download URL again without charging. Refused without charge while ' +
    'the job runs (result_not_ready), when it failed, or when its result is gone.';
  readonly paid = true;
  readonly annotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false };
  readonly inputSchema = z.object({ job_id: z.string().describe('The job id convert_file answered.') });
  readonly outputSchema = PurchasedConversionResultSchema.extend({
    delivery_record_fields: z.record(z.string(), z.unknown()).optional().describe("The delivery record's payload, decoded (verify the JWS itself before relying on it)."),
  });

  constructor(
    private readonly results: ResultPurchaseService,
    private readonly payments: ToolPayments,
  ) {}

  async run(args: Record<string, unknown>, call: ToolCall): Promise<CallToolResult> {
    const { job_id: jobId } = validated(this.inputSchema, args);
    // As the HTTP route's path: an id it would refuse is refused by the lookup (400) before any challenge.
    const path = `/api/x402/v1/convert-file/${encodeURIComponent(jobId)}/result`;
    const paid = this.payments.of(call, { route: PAID_ROUTES[PURCHASE_RESULT_OPERATION], method: 'GET', path, routePattern: ROUTE_PATTERN, body: null });
    const bought = await this.results.purchase(jobId, paid.payment, call.baseUrl);
    const fields = bought.delivery_record ? decodedPayload(bought.delivery_record) : undefined;
    return toolResult(
      { ...bought, ...(fields ? { delivery_record_fields: fields } : {}) },
      {
        text: `Bought: ${bought.filename} (${bought.result_size_bytes} bytes) at ${bought.download_url}, valid one hour.`,
        content: [{ type: 'resource_link', uri: bought.download_url, name: bought.filename, mimeType: bought.mime_type, description: 'The converted file (valid one hour; no payment again).' }],
        meta: paid.meta(),
      },
    );
  }
}

/** A compact JWS's payload, read without verifying it (the client verifies the JWS against did.json). */
function decodedPayload(jws: string): Record<string, unknown> | undefined {
  try {
    const payload = JSON.parse(Buffer.from(jws.split('.')[1] ?? '', 'base64url').toString('utf8')) as unknown;
    return payload && typeof payload === 'object' ? (payload as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
