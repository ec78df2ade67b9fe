import type { FileshiftClient } from '@fileshift/sdk';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { saveResult } from '../save-result.js';

/** Results up to this size may come back inside the tool result as well. */
export const MAX_EMBEDDED_BYTES = 1024 * 1024;

export const deliveredResultShape = {
  job_id: z.string(),
  path: z.string().describe('Where the result was saved.'),
  download_url: z.string().describe('Valid one hour; no further payment.'),
  filename: z.string(),
  mime_type: z.string(),
  size_bytes: z.number(),
  price_paid_usdc: z.string().nullable().describe('Null when the result had been bought before (no new charge).'),
  transaction: z.string().nullable(),
};

export type DeliveredResult = { [K in keyof typeof deliveredResultShape]: z.infer<(typeof deliveredResultShape)[K]> };

/** Buys a done job's result (free if already bought), downloads it into the output directory. */
export async function deliverResult(client: FileshiftClient, jobId: string, outputDir: string, embed: boolean): Promise<{ result: DeliveredResult; embedded: CallToolResult['content'] }> {
  const bought = await client.buyResult(jobId);
  const download = await fetch(bought.download_url);
  if (!download.ok) throw new Error(`Downloading the result failed with HTTP ${download.status}; call purchase_result again for a new URL (no new payment).`);
  const data = new Uint8Array(await download.arrayBuffer());
  const path = await saveResult(outputDir, bought.filename, data);
  const result: DeliveredResult = {
    job_id: jobId,
    path,
    download_url: bought.download_url,
    filename: bought.filename,
    mime_type: bought.mime_type,
    size_bytes: data.length,
    price_paid_usdc: bought.receipt ? (bought.payment?.amount.amount ?? null) : null,
    transaction: bought.receipt?.transaction ?? null,
  };
  const embedded: CallToolResult['content'] =
    embed && data.length <= MAX_EMBEDDED_BYTES
      ? [{ type: 'resource', resource: { uri: bought.download_url, mimeType: bought.mime_type, blob: Buffer.from(data).toString('base64') } }]
      : [];
  return { result, embedded };
}

export function describeDelivery(result: DeliveredResult): string {
  const paid = result.price_paid_usdc ? `Paid ${result.price_paid_usdc} USDC (tx ${result.transaction}).` : 'Already paid for earlier: no new charge.';
  return `Saved ${result.filename} (${result.size_bytes} bytes, ${result.mime_type}) to ${result.path}. ${paid} Download URL (1 hour): ${result.download_url}`;
}
