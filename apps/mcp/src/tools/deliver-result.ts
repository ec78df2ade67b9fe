import { checkDelivered, type DeliveryRecord, type FileshiftClient, parseUsdc } from '@fileshift/sdk';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { CallPayment, CallPayments } from '../call-payments.js';
import type { FileshiftContext } from '../fileshift-context.js';
import { describeResultContent, MAX_EMBEDDED_BYTES, resultContent } from '../results/result-content.js';
import type { ResultResources } from '../results/result-resources.js';
import { saveResult } from '../save-result.js';
import { formatAmount } from '../usdc-amount.js';
import { describePaidOn, paidOn, paidOnShape } from './paid-on.js';

export { MAX_EMBEDDED_BYTES };

/** The service's signed x402 receipt of a settlement, as the tools return it. */
export const signedReceiptShape = z
  .string()
  .nullable()
  .describe("The service's signed receipt of the settlement (x402 offer-receipt, compact JWS), verified against its /.well-known/did.json; null when none came back.");

export const receiptShape = z
  .object({
    network: z.string(),
    payer: z.string().nullable().describe('The paying address, when the settlement reports it.'),
    transaction: z.string().nullable(),
    amount_usdc: z.string(),
    settled_at: z.string().nullable(),
    signed_receipt: signedReceiptShape,
  })
  .describe("The settlement of the result's payment: this call's, or the earlier one when the result had been bought before.");

const deliveredFile = { filename: z.string(), sha256: z.string(), sizeBytes: z.number() };

export const deliveryRecordShape = z
  .object({
    jws: z.string().describe('The record as the service signed it (compact JWS, EdDSA): keep it to prove the purchase to anyone.'),
    kid: z.string().describe("The signing key, published in the service's /.well-known/did.json."),
    issuedAt: z.number(),
    resourceUrl: z.string(),
    jobId: z.string(),
    input: z.object({ format: z.string(), sha256: z.string(), sizeBytes: z.number() }),
    output: z.object({ ...deliveredFile, format: z.string(), mimeType: z.string(), files: z.array(z.object(deliveredFile)).optional() }),
    plan: z.array(z.object({ engine: z.string(), version: z.string().nullable(), from: z.string(), to: z.string() })),
    payment: z.object({ network: z.string(), amount: z.string(), payer: z.string().nullable(), transaction: z.string(), settledAt: z.string() }),
  })
  .nullable()
  .describe('What the payment bought, signed by the service and verified: the input and the saved file (SHA-256, size), the engines and their versions, the payment. The saved file was checked against it.');

export const deliveredResultShape = {
  job_id: z.string(),
  path: z.string().describe("Where the result was saved, on the MCP server's disk."),
  download_url: z.string().describe('Valid one hour; no further payment.'),
  filename: z.string(),
  mime_type: z.string(),
  size_bytes: z.number(),
  price_paid_usdc: z.string().nullable().describe('What this call paid for the result; null when it had been bought before (no new charge).'),
  transaction: z.string().nullable(),
  paid_on: paidOnShape,
  receipt: receiptShape.nullable(),
  delivery_record: deliveryRecordShape,
  resource_uri: z.string().describe('The result as an MCP resource of this session (resources/read), also returned as a resource_link.'),
  embedded_as: z.enum(['image', 'audio', 'resource']).nullable().describe('How the file is also embedded in this result; null when it is not.'),
  too_big_to_embed: z.boolean().describe(`True when the file is over ${MAX_EMBEDDED_BYTES} bytes and so only linked.`),
};

export type DeliveredResult = { [K in keyof typeof deliveredResultShape]: z.infer<(typeof deliveredResultShape)[K]> };

/** The result was bought but did not reach the output directory; buying it again is free. */
export class ResultNotSavedError extends Error {}

/**
 * Buys a done job's result (free if already bought), saves it into the output directory and registers it as this
 * session's MCP resource; the content links to it, and embeds images and audio (other files when `embed`) up to 1 MB.
 */
export async function deliverResult(
  { client, payments }: { client: FileshiftClient; payments: CallPayments },
  jobId: string,
  { context, results, embed }: { context: FileshiftContext; results: ResultResources; embed: boolean },
): Promise<{ result: DeliveredResult; content: CallToolResult['content']; text: string }> {
  const bought = await client.buyResult(jobId);
  const { outputDir } = context.config;
  const paid = payments.paidFor(bought.receipt);
  const receipt = receiptOfPurchase(bought, paid);
  const where = await paidOn(paid, context);
  let data: Uint8Array;
  let path: string;
  try {
    const download = await fetch(bought.download_url);
    if (!download.ok) throw new Error(`the download answered HTTP ${download.status}`);
    data = new Uint8Array(await download.arrayBuffer());
    // Never saved unless it is the file the service signed for.
    if (bought.deliveryRecord) checkDelivered(bought.deliveryRecord, data);
    path = await saveResult(outputDir, bought.filename, data);
  } catch (error) {
    const charge = where === null ? 'It had been paid for before' : `It was paid: ${formatAmount(paid!.amount)} USDC ${describePaidOn(where)}`;
    throw new ResultNotSavedError(
      `The result of job ${jobId} was bought but not saved to ${outputDir}: ${(error as Error).message}. ${charge}. ` +
        `Calling purchase_result with job_id ${jobId} again is free (no new payment); the download URL also works for one hour: ${bought.download_url}`,
      { cause: error },
    );
  }
  const resource = results.add({ jobId, filename: bought.filename, mimeType: bought.mime_type, sizeBytes: data.length, path });
  const returned = resultContent(resource, data, { embed });
  const result: DeliveredResult = {
    job_id: jobId,
    path,
    download_url: bought.download_url,
    filename: bought.filename,
    mime_type: bought.mime_type,
    size_bytes: data.length,
    price_paid_usdc: paid === null ? null : formatAmount(paid.amount),
    transaction: paid?.transaction ?? null,
    paid_on: where,
    receipt,
    delivery_record: bought.deliveryRecord ? recordOf(bought.deliveryRecord) : null,
    resource_uri: resource.uri,
    embedded_as: returned.embeddedAs,
    too_big_to_embed: returned.tooBigToEmbed,
  };
  return { result, content: returned.content, text: `${describeDelivery(result)} ${describeResultContent(resource, returned)}` };
}

function receiptOfPurchase(bought: Awaited<ReturnType<FileshiftClient['buyResult']>>, paid: CallPayment | null): DeliveredResult['receipt'] {
  const { receipt: settled, payment: recorded } = bought;
  if (settled && paid !== null) {
    return {
      network: settled.network,
      payer: settled.payer ?? null,
      transaction: settled.transaction,
      amount_usdc: formatAmount(paid.amount),
      settled_at: recorded?.settled_at ?? null,
      signed_receipt: settled.signed?.jws ?? null,
    };
  }
  if (!recorded) return null;
  // Bought before: the service's record of that payment.
  return { network: recorded.network, payer: null, transaction: recorded.tx_hash ?? null, amount_usdc: formatAmount(parseUsdc(recorded.amount.amount)), settled_at: recorded.settled_at ?? null, signed_receipt: null };
}

/** The delivery record's fields a tool states (the rest is in its JWS). */
function recordOf(record: DeliveryRecord): NonNullable<DeliveredResult['delivery_record']> {
  const { jws, kid, issuedAt, resourceUrl, jobId, input, output, plan, payment } = record;
  return { jws, kid, issuedAt, resourceUrl, jobId, input, output, plan, payment: { network: payment.network, amount: payment.amount, payer: payment.payer, transaction: payment.transaction, settledAt: payment.settledAt } };
}

function describeDelivery(result: DeliveredResult): string {
  const paid = result.paid_on ? `Paid ${result.price_paid_usdc} USDC ${describePaidOn(result.paid_on)}.` : 'Already paid for earlier: no new charge.';
  return `Saved ${result.filename} (${result.size_bytes} bytes, ${result.mime_type}) to ${result.path}. ${paid} Download URL (1 hour): ${result.download_url}`;
}
