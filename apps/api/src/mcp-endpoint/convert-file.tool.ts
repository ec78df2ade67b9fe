import { Injectable } from '@nestjs/common';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { ConversionJobs, type StartedConversion } from '../conversion-jobs/conversion-jobs.service.js';
import { MAX_JOIN_FILES } from '../config/upload-limit.js';
import { RequestValidationError } from '../errors/request-validation.error.js';
import { cleanFileName } from '../http-kit/file-name.js';
import { singleFileUpload, type Upload, type UploadedFile } from '../http-kit/upload-reader.js';
import { CREATE_JOB_OPERATION, PAID_ROUTES } from '../payments/paid-operations.js';
import { ConversionJobAcceptedSchema } from '../x402-api/convert-file.schemas.js';
import { retryAfterSeconds } from '../x402-api/job-status-view.js';
import { PaidConversions } from '../x402-api/paid-conversions.js';
import { PaidUrlConversions } from '../x402-api/paid-url-conversions.js';
import { ContentInputs, contentTooLarge, MAX_CONTENT_BYTES } from './content-input.js';
import type { McpTool, ToolCall } from './mcp-tool.js';
import { ToolPayments } from './tool-payments.js';
import { OPERATION_EXAMPLES_TEXT } from './operation-examples.js';
import { toolResult } from './tool-results.js';

const PATH = '/api/x402/v1/convert-file';
const CONTENT_FIELD = 'content_base64';
const CONTENTS_FIELD = 'contents';

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
    `(at most ${MAX_CONTENT_BYTES / 1024 / 1024} MiB decoded; larger files by source_url), or several files as ${CONTENTS_FIELD} ` +
    `(2 to ${MAX_JOIN_FILES}, ${MAX_CONTENT_BYTES / 1024 / 1024} MiB together) joined into one result, with target_format. Everything that can ` +
    'be checked is checked before the challenge, and a file that cannot be converted settles nothing. Called without payment it ' +
    'answers the x402 challenge; call again with the PaymentPayload in _meta["x402/payment"]. Then follow the job with ' +
    `get_conversion_status and buy its result with purchase_result.\n${OPERATION_EXAMPLES_TEXT}`;
  readonly paid = true;
  readonly annotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };
  readonly inputSchema = z.object({
    target_format: z.string().describe('Output format without a dot, e.g. webp, mp3, md (list_formats has every pair).'),
    source_url: z.string().optional().describe('The file at an http(s) URL. Either this or content_base64.'),
    [CONTENT_FIELD]: z.string().optional().describe(`The file's bytes, standard base64, at most ${MAX_CONTENT_BYTES} bytes decoded. Either this or source_url.`),
    [CONTENTS_FIELD]: z
      .array(z.object({ [CONTENT_FIELD]: z.string().describe('The file\'s bytes, standard base64.'), filename: z.string().describe('Its name (an archive\'s entry; a detection hint).') }))
      .min(2)
      .max(MAX_JOIN_FILES)
      .optional()
      .describe(
        `Instead of one file: 2 to ${MAX_JOIN_FILES} files joined into one result, in order (at most ${MAX_CONTENT_BYTES} bytes decoded together): PDFs merged into a PDF, ` +
          'pictures into a PDF a page each, documents into a PDF, any files into an archive (zip, tar…). One job fee, the result priced by their total size.',
      ),
    filename: z
      .string()
      .optional()
      .describe("The file name: required with content_base64 (a detection hint), optional with source_url; with contents the result's name (the first file's by default)."),
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
    const contents = args[CONTENTS_FIELD];
    const given = (['source_url', CONTENT_FIELD, CONTENTS_FIELD] as const).filter((field) => args[field] !== undefined);
    if (given.length > 1) {
      throw new RequestValidationError(given.map((field) => ({ field, message: `send one of source_url, ${CONTENT_FIELD} or ${CONTENTS_FIELD}` })));
    }
    // A URL conversion's arguments are its HTTP body; content stands for an upload, whose body the gate never reads.
    const byUrl = content === undefined && contents === undefined;
    const paid = this.payments.of(call, { route: PAID_ROUTES[CREATE_JOB_OPERATION], method: 'POST', path: PATH, routePattern: PATH, body: byUrl ? args : null });
    const started = byUrl
      ? await this.urlConversions.start(args, undefined, paid.payment, call.baseUrl)
      : contents !== undefined
        ? await this.fromContents(args, contents, paid.payment, call)
        : await this.fromContent(args, content, paid.payment, call);
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
      const started = await this.conversions.start(slot, singleFileUpload(fields, { key: slot.storageKey, clientFilename: fields.filename ?? '', ...stored }), undefined, payment, call.baseUrl);
      created = started.created;
      return started;
    } finally {
      if (!created) await this.contents.discard(slot.storageKey);
    }
  }

  /**
   * Several files' content stored as the members of a new job's input slot, in order, and started as an upload of
   * several would be (a join); every one removed unless a new job took them.
   */
  private async fromContents(args: Record<string, unknown>, contents: unknown, payment: Parameters<PaidConversions['start']>[3], call: ToolCall): Promise<StartedConversion> {
    const members = contentMembers(contents);
    const slot = this.jobs.inputSlot();
    const keys = members.map((_, index) => slot.memberKey(index + 1));
    const files: UploadedFile[] = [];
    let total = 0;
    let created = false;
    try {
      for (const [index, member] of members.entries()) {
        const file: UploadedFile = { key: keys[index]!, clientFilename: member.filename, ...(await this.contents.store(member.field, member.content, keys[index]!)) };
        files.push(file);
        total += file.size;
        // One limit for them all, as for an upload of several: files that each fit may not add up past it.
        if (total > MAX_CONTENT_BYTES) {
          throw contentTooLarge(`The ${CONTENTS_FIELD} together exceed ${MAX_CONTENT_BYTES} bytes; join larger files by uploading them to POST ${PATH} (40 MiB together).`);
        }
      }
      const fields = uploadFields({ ...args, filename: args.filename ?? members[0]!.filename }, total);
      const upload: Upload = { fields, file: files[0], files };
      const started = await this.conversions.start(slot, upload, undefined, payment, call.baseUrl);
      created = started.created;
      return started;
    } finally {
      // Every member's key, stored or not: a store that failed half-way leaves nothing behind either.
      if (!created) await Promise.all(keys.map((key) => this.contents.discard(key)));
    }
  }
}

/** Each member of `contents` as the upload of several files names it; the wrong shape refused before anything is stored. */
function contentMembers(contents: unknown): Array<{ field: string; content: string; filename: string }> {
  if (!Array.isArray(contents) || contents.length < 2 || contents.length > MAX_JOIN_FILES) {
    throw RequestValidationError.of(CONTENTS_FIELD, `must be a list of 2 to ${MAX_JOIN_FILES} files`);
  }
  return contents.map((member: unknown, index) => {
    const { [CONTENT_FIELD]: content, filename } = (typeof member === 'object' && member !== null ? member : {}) as Record<string, unknown>;
    const field = `${CONTENTS_FIELD}[${index}]`;
    if (typeof content !== 'string') throw RequestValidationError.of(`${field}.${CONTENT_FIELD}`, 'must be a base64 string');
    if (typeof filename !== 'string' || cleanFileName(filename) === '') throw RequestValidationError.of(`${field}.filename`, 'must name the file');
    return { field: `${field}.${CONTENT_FIELD}`, content, filename: cleanFileName(filename) };
  });
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
