import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  appendTransactionMessageInstructions,
  type Blockhash,
  createKeyPairSignerFromBytes,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import { getTransferCheckedInstruction } from '@solana-program/token';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SolanaDevChain } from '../src/solana-dev-chain.js';
import { SOLANA_DEV_KEYS, SOLANA_DEV_USDC_PER_PAYER } from '../src/solana-dev-keys.js';
import { usdcAccountOf } from '../src/solana-genesis.js';

const SOURCE = fileURLToPath(new URL('../src/solana-dev-chain.ts', import.meta.url));

/** Runs a script in a fresh Node process (TypeScript through tsx); resolves to its stdout once it exits with 0. */
async function runScript(script: string, timeoutMs = 30_000): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += String(chunk)));
  child.stderr.on('data', (chunk: Buffer) => (stderr += String(chunk)));
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (exitCode) => {
      clearTimeout(timer);
      resolve(exitCode);
    });
  });
  if (code !== 0) throw new Error(`script exited with ${code}: ${stderr}`);
  return stdout.trim();
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('Solana dev chain (LiteSVM behind a JSON-RPC front, in a process of its own)', () => {
  let chain: SolanaDevChain;

  beforeAll(async () => {
    chain = await SolanaDevChain.start();
  });
  afterAll(async () => {
    await chain?.stop();
  });

  /** A token transfer signed by a payer that also pays its fee, on `blockhash` (the latest by default). */
  async function transfer(payerIndex: number, amount: bigint, blockhash?: { blockhash: Blockhash; lastValidBlockHeight: bigint }): Promise<string> {
    const payer = await createKeyPairSignerFromBytes(chain.payerSecretKeys[payerIndex]!);
    const lifetime = blockhash ?? (await latestBlockhash());
    const instruction = getTransferCheckedInstruction({
      source: await usdcAccountOf(payer.address),
      mint: chain.usdcMint,
      destination: await usdcAccountOf(chain.payTo),
      authority: payer,
      amount,
      decimals: chain.usdcDecimals,
    });
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(payer, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
      (m) => appendTransactionMessageInstructions([instruction], m),
    );
    return getBase64EncodedWireTransaction(await signTransactionMessageWithSigners(message));
  }

  async function latestBlockhash(): Promise<{ blockhash: Blockhash; lastValidBlockHeight: bigint }> {
    const { value } = (await chain.rpc('getLatestBlockhash', [])) as { value: { blockhash: Blockhash; lastValidBlockHeight: number } };
    return { blockhash: value.blockhash, lastValidBlockHeight: BigInt(value.lastValidBlockHeight) };
  }

  const send = (wire: string) => chain.rpc('sendTransaction', [wire, { encoding: 'base64' }]);
  const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (error: Error & { code: number }) => ({ code: error.code, message: error.message }));

  it('starts with the test USDC mint at its fixed address, and the payers, payTo and fee payer funded', async () => {
    expect(chain.usdcMint).toBe(SOLANA_DEV_KEYS.usdcMint.address);
    const { value: mint } = (await chain.rpc('getAccountInfo', [chain.usdcMint, { encoding: 'base64' }])) as { value: { owner: string } };
    expect(mint.owner).toBe('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA');
    for (const payer of chain.payerAddresses) expect(await chain.usdcBalanceOf(payer)).toBe(SOLANA_DEV_USDC_PER_PAYER);
    expect(await chain.usdcBalanceOf(chain.payTo)).toBe(0n);
    const { value: feePayerLamports } = (await chain.rpc('getBalance', [chain.feePayer])) as { value: number };
    expect(feePayerLamports).toBeGreaterThan(1e9);
    await chain.assertReachable();
  });

  it('executes a transaction, refuses it a second time, and tells its status', async () => {
    const before = await chain.usdcBalanceOf(chain.payTo);
    const wire = await transfer(0, 500n);
    const signature = await send(wire);
    expect(await chain.usdcBalanceOf(chain.payTo)).toBe(before + 500n);
    expect(await failure(send(wire))).toEqual({ code: -32002, message: expect.stringMatching(/already been processed/) });
    expect(await chain.usdcBalanceOf(chain.payTo)).toBe(before + 500n);
    const { value } = (await chain.rpc('getSignatureStatuses', [[signature, '1111111111111111111111111111111111111111111111111111111111111111']])) as { value: unknown[] };
    expect(value).toEqual([expect.objectContaining({ err: null, confirmationStatus: 'finalized' }), null]);
  });

  it('refuses a transaction on an unknown blockhash, and accepts one on a blockhash that has since been replaced', async () => {
    const before = await chain.usdcBalanceOf(chain.payTo);
    const unknown = await transfer(1, 100n, { blockhash: '4uhcVJyU9pJkvQyS88uRDiswHXSCkY3zQawwpjk2NsNY' as Blockhash, lastValidBlockHeight: 1n });
    expect(await failure(send(unknown))).toEqual({ code: -32002, message: expect.stringMatching(/Blockhash not found/) });
    const earlier = await latestBlockhash();
    const signedEarlier = await transfer(1, 100n, earlier);
    await new Promise((resolve) => setTimeout(resolve, 900));
    expect((await latestBlockhash()).blockhash).not.toBe(earlier.blockhash);
    await send(signedEarlier);
    await send(await transfer(1, 100n));
    expect(await chain.usdcBalanceOf(chain.payTo)).toBe(before + 200n);
  });

  it('answers a failing transaction with the validator error, and a method it does not serve with -32601', async () => {
    const before = await chain.usdcBalanceOf(chain.payerAddresses[2]!);
    const error = await failure(send(await transfer(2, SOLANA_DEV_USDC_PER_PAYER + 1n)));
    expect(error).toEqual({ code: -32002, message: expect.stringMatching(/Error processing Instruction 0/) });
    expect(await chain.usdcBalanceOf(chain.payerAddresses[2]!)).toBe(before);
    expect(await failure(chain.rpc('getProgramAccounts', ['TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA']))).toMatchObject({ code: -32601 });
    expect(await failure(chain.rpc('getAccountInfo', [chain.usdcMint, { encoding: 'jsonParsed' }]))).toMatchObject({ code: -32602 });
  });

  it('is the same chain, with the same addresses, for another process attaching to it', async () => {
    const script = `const { SolanaDevChain } = await import(${JSON.stringify(SOURCE)});
const chain = await SolanaDevChain.start({ rpcUrl: ${JSON.stringify(chain.rpcUrl)} });
const payToBalance = await chain.usdcBalanceOf(chain.payTo);
process.stdout.write(JSON.stringify({ mint: chain.usdcMint, payTo: chain.payTo, feePayer: chain.feePayer, payers: chain.payerAddresses, payToBalance: String(payToBalance) }));`;
    const seen = JSON.parse(await runScript(script));
    expect(seen).toEqual({
      mint: chain.usdcMint,
      payTo: chain.payTo,
      feePayer: chain.feePayer,
      payers: chain.payerAddresses,
      payToBalance: String(await chain.usdcBalanceOf(chain.payTo)),
    });
  });

  it('refuses to attach to a URL where no dev chain answers', async () => {
    await expect(SolanaDevChain.start({ rpcUrl: 'http://127.0.0.1:9' })).rejects.toThrow();
  });
});

describe('Solana dev chain processes', () => {
  it('leaves no process behind after stop()', async () => {
    const chain = await SolanaDevChain.start();
    const pid = chain.pid!;
    expect(isRunning(pid)).toBe(true);
    await chain.stop();
    expect(isRunning(pid)).toBe(false);
  });

  it('leaves no process behind when the process that started it ends without stop(), and keeps none alive', async () => {
    const script = `const { SolanaDevChain } = await import(${JSON.stringify(SOURCE)});
const chain = await SolanaDevChain.start();
process.stdout.write(String(chain.pid));`;
    const pid = Number(await runScript(script));
    expect(pid).toBeGreaterThan(0);
    await expect.poll(() => isRunning(pid), { timeout: 5000 }).toBe(false);
  });
});
