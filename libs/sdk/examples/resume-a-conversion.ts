/**
 * Resume a conversion that stopped after its job started. Here the first call waits too briefly:
 * convertFile pays the job fee, then throws a TimeoutError; the error names the job and its key, and
 * the same key (with the same file) resumes that job, so only the result is paid.
 *   PAYER_KEY=0x… PAY_NETWORK=eip155:8453 PAY_ASSET=0x8335…2913 node resume-a-conversion.ts photo.png webp
 */
import { createClient, createPayer, isTargetFormat, parseUsdc, TimeoutError } from '@fileshift/sdk';
import { fileFromPath, saveFile } from '@fileshift/sdk/node';
import { privateKeyToAccount } from 'viem/accounts';

const [path, targetFormat = 'webp'] = process.argv.slice(2);
if (!path) throw new Error('usage: resume-a-conversion.ts <file> [target format]');
if (!isTargetFormat(targetFormat)) throw new Error(`unknown target format ${targetFormat}`);

const account = privateKeyToAccount(process.env.PAYER_KEY as `0x${string}`);
const allow = [{ network: process.env.PAY_NETWORK ?? 'eip155:8453', asset: process.env.PAY_ASSET ?? '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' }];
const payer = createPayer({ account, allow, maxPerPayment: parseUsdc('0.05') });
const waitingUpTo = (ms: number) => createClient({ baseUrl: process.env.FILESHIFT_URL ?? 'http://127.0.0.1:3000', payer, conversionTimeoutMs: ms });

const input = await fileFromPath(path);
try {
  await waitingUpTo(1).convertFile({ input, targetFormat });
} catch (error) {
  if (!(error instanceof TimeoutError && error.jobId && error.idempotencyKey)) throw error;
  console.log(`${error.message} Job ${error.jobId} waits on the server.`);
  const converted = await waitingUpTo(60_000).convertFile({ input, targetFormat, idempotencyKey: error.idempotencyKey });
  await saveFile(`${path}.${targetFormat}`, converted.data);
  console.log(`resumed job ${converted.jobId}: ${converted.receipts.length} more payment, saved ${path}.${targetFormat}`);
}
