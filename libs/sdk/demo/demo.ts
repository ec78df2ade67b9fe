/**
 * `npm run demo`: the first thing to run after `npm start`. Against the service in dev mode it
 * detects a sample image and converts it to webp paying on the local EVM dev chain, detects it once
 * more paying on the local Solana, saves the result and prints every step with its price and transaction.
 *   FILESHIFT_URL (default http://127.0.0.1:3000), DEMO_OUTPUT_DIR (default ./demo-output)
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createClient, createPayer, formatUsdc, parseUsdc } from '@fileshift/sdk';
import { createKeyPairSignerFromBytes } from '@solana/kit';
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { createPublicClient, erc20Abi, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

const baseUrl = (process.env.FILESHIFT_URL ?? 'http://127.0.0.1:3000').replace(/\/+$/, '');
const outputDir = resolve(process.env.DEMO_OUTPUT_DIR ?? 'demo-output');
// A 16×16 PNG, so the demo needs no file of yours.
const SAMPLE_PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000010000000100802000000909168360000000970485973000003e8000003e801b57b526b' +
    '0000001949444154289163304e3b43126218d590361a4ac6c335690000320e651025121ae10000000049454e44ae426082',
  'hex',
);

/** The parts of /.well-known/x402.json the demo reads: the dev chains and the prices. */
interface Discovery {
  devChain?: { rpcUrl: string; network: string; usdc: `0x${string}`; payerPrivateKey: `0x${string}` };
  /** The payer's 64-byte secret key is a JSON byte array (solana-keygen's form). */
  solanaDevChain?: { rpcUrl: string; network: string; usdc: string; payerSecretKey: number[] };
  resources: Array<{ operationId: string; price: { amount?: string; min?: string; max?: string } }>;
}

const wellKnown = await fetch(`${baseUrl}/.well-known/x402.json`).then(
  (response) => response.json() as Promise<Discovery>,
  (error: Error) => {
    throw new Error(`The service is not reachable at ${baseUrl} (${error.message}). Start it with \`npm start\`, or set FILESHIFT_URL.`);
  },
);
const chain = wellKnown.devChain;
const solana = wellKnown.solanaDevChain;
if (!chain || !solana) throw new Error(`${baseUrl} is not in dev mode (no devChain and solanaDevChain in /.well-known/x402.json): the demo pays on the local dev chains only.`);

const price = (operationId: string) => wellKnown.resources.find((resource) => resource.operationId === operationId)!.price;
const usdc = (amount = '0') => formatUsdc(parseUsdc(amount));
const account = privateKeyToAccount(chain.payerPrivateKey);
const balance = () => createPublicClient({ transport: http(chain.rpcUrl) }).readContract({ address: chain.usdc, abi: erc20Abi, functionName: 'balanceOf', args: [account.address] });
const payer = createPayer({ account, allow: [{ network: chain.network, asset: chain.usdc }], maxPerPayment: parseUsdc('0.05'), budget: parseUsdc('0.1') });
const client = createClient({ baseUrl, payer });
const step = (text: string) => console.log(`\n▸ ${text}`);
const sample = { data: SAMPLE_PNG, filename: 'sample.png' };

console.log(`Fileshift demo against ${baseUrl} — dev chain ${chain.network} at ${chain.rpcUrl}`);
console.log(`payer ${account.address}: ${formatUsdc(await balance())} test USDC`);

step(`detect sample.png (${usdc(price('detectFileType').amount)} USDC)`);
const detected = await client.detectFile(sample);
console.log(`  ${detected.detected_format?.description} — can become ${detected.convertible_to.slice(0, 6).join(', ')}…`);
console.log(`  paid: tx ${detected.receipt?.transaction}`);

const resultPrice = price('purchaseConversionResult');
step(`convert sample.png to webp (job fee ${usdc(price('createConversionJob').amount)} USDC, result ${usdc(resultPrice.min)}–${usdc(resultPrice.max)} USDC by size)`);
const converted = await client.convertFile({
  input: sample,
  targetFormat: 'webp',
  onProgress: (job) => console.log(`  job ${job.job_id}: ${job.status}${job.status === 'done' ? `, result price ${job.price_for_result.amount} USDC` : ''}`),
});
converted.receipts.forEach((receipt, index) => console.log(`  paid ${index === 0 ? 'job fee' : 'result'}: tx ${receipt.transaction}`));

await mkdir(outputDir, { recursive: true });
const saved = join(outputDir, converted.filename);
await writeFile(saved, converted.data);
step(`saved ${saved} (${converted.sizeBytes} bytes, ${converted.mimeType})`);
const record = converted.deliveryRecord;
if (record) {
  console.log(`  delivery record, signed by ${record.kid} and verified: ${record.input.format} sha256 ${record.input.sha256.slice(0, 12)}… → ${record.output.format} sha256 ${record.output.sha256.slice(0, 12)}… (the saved file's), by ${record.plan.map((step) => `${step.engine} ${step.version ?? ''}`.trim()).join(', ')}, for tx ${record.payment.transaction}`);
}

// Solana: the SDK's payer with a Solana signer, reading the mint and a blockhash from the local Solana; the test mint
// allowed explicitly, at most 0.01 USDC a payment.
const solanaSigner = await createKeyPairSignerFromBytes(Uint8Array.from(solana.payerSecretKey));
const solanaPayer = createPayer({
  account,
  svmSigner: solanaSigner,
  svmRpcUrl: solana.rpcUrl,
  allow: [{ network: solana.network, asset: solana.usdc }],
  maxPerPayment: parseUsdc('0.01'),
  budget: parseUsdc('0.01'),
});
const solanaClient = createClient({ baseUrl, payer: solanaPayer });
const [solanaTokenAccount] = await findAssociatedTokenPda({ owner: solanaSigner.address, mint: solana.usdc as never, tokenProgram: TOKEN_PROGRAM_ADDRESS });
const solanaBalance = async () => {
  const answer = await fetch(solana.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getTokenAccountBalance', params: [solanaTokenAccount] }) });
  return BigInt(((await answer.json()) as { result: { value: { amount: string } } }).result.value.amount);
};
const solanaBefore = await solanaBalance();

step(`detect sample.png again, paying on the local Solana ${solana.network} at ${solana.rpcUrl} (${usdc(price('detectFileType').amount)} USDC)`);
const detectedOnSolana = await solanaClient.detectFile(sample);
console.log(`  ${detectedOnSolana.detected_format?.description}`);
console.log(`  paid on Solana: transaction ${detectedOnSolana.receipt?.transaction}`);

console.log(`\npayer ${account.address}: ${formatUsdc(await balance())} test USDC, ${formatUsdc(payer.spent())} USDC spent by this demo on ${chain.network}`);
const solanaAfter = await solanaBalance();
console.log(`payer ${solanaSigner.address}: ${formatUsdc(solanaAfter)} test USDC, ${formatUsdc(solanaBefore - solanaAfter)} USDC spent by this demo on ${solana.network}`);
