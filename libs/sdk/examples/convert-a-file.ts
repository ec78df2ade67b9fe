/**
 * Detect a file, convert it and save the result, paying with x402 from a wallet.
 *   PAYER_KEY=0x… PAY_NETWORK=eip155:8453 PAY_ASSET=0x8335…2913 node convert-a-file.ts photo.png webp
 */
import { createClient, createPayer, isTargetFormat, parseUsdc } from '@fileshift/sdk';
import { fileFromPath, saveFile } from '@fileshift/sdk/node';
import { privateKeyToAccount } from 'viem/accounts';

const [path, targetFormat = 'webp'] = process.argv.slice(2);
if (!path) throw new Error('usage: convert-a-file.ts <file> [target format]');
if (!isTargetFormat(targetFormat)) throw new Error(`unknown target format ${targetFormat}`);

const payer = createPayer({
  account: privateKeyToAccount(process.env.PAYER_KEY as `0x${string}`),
  // Only what is listed here is ever paid with (Base USDC by default).
  allow: [{ network: process.env.PAY_NETWORK ?? 'eip155:8453', asset: process.env.PAY_ASSET ?? '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' }],
  maxPerPayment: parseUsdc('0.05'),
  budget: parseUsdc('1'),
});
const client = createClient({ baseUrl: process.env.FILESHIFT_URL ?? 'http://127.0.0.1:3000', payer });

const input = await fileFromPath(path);
const detected = await client.detectFile(input);
console.log(`detected: ${detected.detected_format?.description ?? 'unknown'} (paid in ${detected.receipt?.transaction})`);

const converted = await client.convertFile({
  input,
  targetFormat,
  onProgress: (job) => console.log(`job ${job.job_id}: ${job.status}`),
});
const output = `${path}.${targetFormat}`;
await saveFile(output, converted.data);
console.log(`saved ${output}: ${converted.sizeBytes} bytes, ${converted.mimeType}; ${converted.receipts.length} payments`);
