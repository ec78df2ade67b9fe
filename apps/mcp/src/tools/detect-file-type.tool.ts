import { newPaymentIdentifier } from '@fileshift/sdk';
import { z } from 'zod';
import { fileInputShape, loadFileForDetection } from '../file-input.js';
import { formatAmount } from '../usdc-amount.js';
import { describeError } from './describe-error.js';
import type { ToolDeps } from './tool-deps.js';
import { toolError, toolResult } from './tool-result.js';
import { signedReceiptShape } from './deliver-result.js';
import { describePaidOn, paidOn, paidOnShape } from './paid-on.js';

export function registerDetectFileType({ server, context, fileSources, payingClient, canAskUser }: ToolDeps): void {
  server.registerTool(
    'detect_file_type',
    {
      title: 'Detect a file type',
      description:
        'Finds out what a file really is from its first 200 bytes, size and name (the extension may be wrong or missing), ' +
        "and what it can be converted to. Costs a small fixed fee in USDC, paid from the agent wallet (the service's current prices are in wallet_status). " +
        'Reads only the first 200 bytes of a local file, so any size can be detected. Give exactly one of a local path, an http(s) url, or content_base64 with filename; ' +
        'a url is fetched by the Fileshift service itself (public hosts only; nothing is charged when it cannot). ' +
        'To retry a call whose answer was lost without paying twice, pass the same payment_id each time.',
      inputSchema: {
        ...fileInputShape,
        payment_id: z
          .string()
          .regex(/^[A-Za-z0-9_-]{16,128}$/, '16 to 128 letters, digits, _ or -')
          .optional()
          .describe('The payment identifier: a call repeated with it is answered from the first payment and charged once. Generated when absent.'),
      },
      outputSchema: {
        detected: z.boolean(),
        format: z.string().nullable().describe('Format id, e.g. png.'),
        description: z.string().nullable(),
        confidence: z.number().nullable(),
        compatibility: z
          .object({ status: z.enum(['yes', 'likely', 'maybe', 'no', 'unknown']), reason: z.string() })
          .describe('Whether convert_file can take it, and why; names the other formats the first bytes fit as well when they cannot tell (the file name decides).'),
        suggested_filename: z.string().nullable(),
        convertible_to: z.array(z.string()),
        paid_usdc: z.string().nullable().describe('What the settled payment behind this answer cost (for a repeat with the same payment_id, the first call\'s); null when none came back.'),
        payment_id: z.string().describe('The payment identifier used: pass it again to retry this call without paying twice.'),
        transaction: z.string().nullable(),
        paid_on: paidOnShape,
        signed_receipt: signedReceiptShape,
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    async (input) => {
      try {
        // Only the first 200 bytes and the size are sent (a file of any size can be detected), or the URL the service fetches.
        const file = await loadFileForDetection(input, fileSources);
        const { client, payments } = await payingClient();
        const paymentId = input.payment_id ?? newPaymentIdentifier();
        const detected = await client.detectFile(file, { paymentId });
        const paid = payments.paidFor(detected.receipt);
        const format = detected.detected_format;
        const result = {
          detected: detected.detected,
          format: format?.format ?? null,
          description: format?.description ?? null,
          confidence: format?.confidence ?? null,
          compatibility: { status: detected.convert_file_compatibility.status, reason: detected.convert_file_compatibility.reason },
          suggested_filename: detected.suggested_filename ?? null,
          convertible_to: detected.convertible_to,
          paid_usdc: paid === null ? null : formatAmount(paid.amount),
          transaction: paid?.transaction ?? null,
          paid_on: await paidOn(paid, context),
          signed_receipt: paid === null ? null : (detected.receipt?.signed?.jws ?? null),
          payment_id: paymentId,
        };
        const text = format
          ? `${detected.input_filename} is ${format.description} (${format.format}, confidence ${format.confidence}). ` +
            `${detected.convert_file_compatibility.reason} ` +
            `It can be converted to: ${detected.convertible_to.join(', ') || 'nothing on this service'}.`
          : `The type of ${detected.input_filename} could not be detected.`;
        const payment = result.paid_on ? `Paid ${result.paid_usdc} USDC ${describePaidOn(result.paid_on)}.` : 'No settled payment came back (wallet_status shows what was spent).';
        return toolResult(result, `${text} ${payment}`);
      } catch (error) {
        return toolError(describeError(error, context, { canAskUser: canAskUser() }));
      }
    },
  );
}
