import { Injectable } from '@nestjs/common';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { ConversionJobs, type StartedConversion } from '../conversion-jobs/conversion-jobs.service.js';
import { RequestValidationError } from '../errors/request-validation.error.js';
import { CREATE_JOB_OPERATION, PAID_ROUTES } from '../payments/paid-operations.js';
import { ConversionJobAcceptedSchema } from '../x402-api/convert-file.schemas.js';
import { retryAfterSeconds } from '../x402-api/job-status-view.js';
import { PaidConversions } from '../x402-api/paid-conversions.js';
import { PaidUrlConversions } from '../x402-api/paid-url-conversions.js';
import { ContentInputs, MAX_CONTENT_BYTES } from './content-input.js';
import type { McpTool, ToolCall } from './mcp-tool.js';
import { ToolPayments } from './tool-payments.js';
import { toolResult } from './tool-results.js';

const PATH = '/api/x402/v1/convert-file';
const CONTENT_FIELD = 'content_base64';

/**
 * POST /api/x402/v1/convert-file as a tool: a file by source_url (the JSON body of the HTTP operation), or its bytes
 * as base64 content, stored into the job's input slot as an upload is. The same job fee, checks and answer.
 */
@Injectable()
export class ConvertFileTool implements McpTool {
  readonly name = 'convert_file';
  readonly title = 'Start a conversion';
  readonly description =
    `Start a conversion job (paid per call: the job fee of POST ${PATH}, non-refundable once the job starts). Give the file by ` +
    `source_url (fetched by the service through its outbound guard after the payment is verified) or as ${CONTENT_FIELD} ` +
    `(at most ${MAX_CONTENT_BYTES / 1024 / 1024} MiB decoded; larger files by source_url), with target_format. Everything that can ` +
    'be checked is checked before the challenge, and a file that cannot be converted settles nothing. Called without payment it ' +
    'answers the x402 challenge; call again with the PaymentPayload in _meta["x402/payment"]. Then follow the job with ' +
    'get_conversion_status and buy its result with purchase_result.';
  readonly paid = true;
  readonly annotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };
  readonly inputSchema = z.object({
    target_format: z.string().describe('Output format without a dot, e.g. webp, mp3, md (list_formats has every pair).'),
    source_url: z.string().optional().describe('The file at an http(s) URL. Either this or content_base64.'),
    [CONTENT_FIELD]: z.string().optional().describe(`The file's bytes, standard base64, at most ${MAX_CONTENT_BYTES} bytes decoded. Either this or source_url.`),
    filename: z.string().optional().describe('The file name: required with content_base64 (a detection hint), optional with source_url.'),
    created_at: z.string().optional().describe('With content_base64: the file creation time, RFC 3339 (a detection hint; now by default).'),
    options: z.record(z.string(), z.unknown()).optional().describe('Conversion options (list_formats names those each conversion takes), e.g. {"quality": 80}.'),
    webhook_url: z.string().optional().describe('An https URL told (signed) when the job ends.'),
  });
  readonly outputSchema = ConversionJobAcceptedSchema;

  constructor(
    private readonly jobs: ConversionJobs,
    private readonly conversions: PaidConversions,
    private readonly urlConversions: PaidUrlConversions,
    private readonly contents: ContentInputs,
    private readonly payments: ToolPayments,
  ) {}

  async run(args: Record<string, unknown>, call: ToolCall): Promise<CallToolResult> {
    const content = args[CONTENT_FIELD];
    if (content !== undefined && args.source_url !== undefined) {
      throw new RequestValidationError(['source_url', CONTENT_FIELD].map((field) => ({ field, message: `send either source_url or ${CONTENT_FIELD}, not both` })));
    }
    // A URL conversion's arguments are its HTTP body; content stands for an upload, whose body the gate never reads.
    const byUrl = content === undefined;
    const paid = this.payments.of(call, { route: PAID_ROUTES[CREATE_JOB_OPERATION], method: 'POST', path: PATH, routePattern: PATH, body: byUrl ? args : null });
    const started = byUrl ? await this.urlConversions.start(args, undefined, paid.payment, call.baseUrl) : await this.fromContent(args, content, paid.payment, call);
    const { job } = started;
    const accepted = {
      job_id: job.id,
      status: 'processing' as const,
      status_url: `${call.baseUrl}${PATH}/${job.id}/status`,
      retry_after_seconds: retryAfterSeconds(job),
      message: started.created ? `Converting ${job.detectedInputFormat} to ${job.targetFormat}.` : 'Existing job for this payment identifier; no new fee was charged.',
    };
    return toolResult(accepted, { text: `${accepted.message} Job ${job.id}: follow it with get_conversion_status.`, meta: paid.meta() });
  }

  /** The content stored into a new job's input slot and started as its upload would be; removed unless a new job took it. */
  private async fromContent(args: Record<string, unknown>, content: unknown, payment: Parameters<PaidConversions['start']>[3], call: ToolCall): Promise<StartedConversion> {
    if (typeof content !== 'string') throw RequestValidationError.of(CONTENT_FIELD, 'must be a base64 string');
    const slot = this.jobs.inputSlot();
    let created = false;
    try {
      const stored = await this.contents.store(CONTENT_FIELD, content, slot.storageKey);
      const fields = uploadFields(args, stored.size);
      const started = await this.conversions.start(slot, { fields, file: { key: slot.storageKey, clientFilename: fields.filename ?? '', ...stored } }, undefined, payment, call.baseUrl);
      created = started.created;
      return started;
    } finally {
      if (!created) await this.contents.discard(slot.storageKey);
    }
  }
}

/** The multipart fields an upload of the content would carry: checked by the upload's own schema. */
function uploadFields(args: Record<string, unknown>, size: number): Record<string, string> {
  const text = (value: unknown) => (value === undefined ? undefined : typeof value === 'string' ? value : JSON.stringify(value));
  const fields: Record<string, string | undefined> = {
    target_format: text(args.target_format),
    filename: text(args.filename),
    created_at: text(args.created_at) ?? new Date().toISOString(),
    size_bytes: String(size),
    options: args.options === undefined ? undefined : JSON.stringify(args.options),
    webhook_url: text(args.webhook_url),
  };
  return Object.fromEntries(Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== undefined));
}
