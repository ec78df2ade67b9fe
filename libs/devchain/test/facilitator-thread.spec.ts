import { spawn } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { FacilitatorResponseError } from '@x402/core/server';
import type { PaymentRequirements } from '@x402/core/types';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DevChain } from '../src/dev-chain.js';
import { FacilitatorThread } from '../src/facilitator-thread.js';
import { SolanaDevChain } from '../src/solana-dev-chain.js';
import { requirementsOn, signedPayment } from './support/payments.js';
import { signedSolanaPayment, solanaRequirementsOn } from './support/solana-payments.js';

describe('FacilitatorThread: the dev facilitator in a thread of its own, on a real anvil', () => {
  let chain: DevChain;
  let facilitator: FacilitatorThread;

  beforeAll(async () => {
    chain = await DevChain.start();
    facilitator = new FacilitatorThread(chain.rpcUrl);
  });
  afterAll(async () => {
    await facilitator?.dispose();
    await chain?.stop();
  });

  const requirements = (overrides: Partial<PaymentRequirements> = {}) => requirementsOn(chain, overrides);
  const signed = (key: `0x${string}`) => signedPayment(chain, key, requirements());

  it('answers what the facilitator supports, and verifies and settles payments side by side: each amount moves once', async () => {
    expect((await facilitator.getSupported()).kinds).toContainEqual(expect.objectContaining({ scheme: 'exact', network: chain.network }));
    const payToBefore = await chain.usdcBalanceOf(chain.payTo);
    const payloads = await Promise.all(Array.from({ length: 12 }, (_, i) => signed(chain.payerPrivateKeys[i % 4]!)));
    const verified = await Promise.all(payloads.map((payload) => facilitator.verify(payload, requirements())));
    expect(verified.map((answer) => answer.isValid)).toEqual(Array(12).fill(true));
    const settled = await Promise.all(payloads.map((payload) => facilitator.settle(payload, requirements())));
    expect(settled.map((answer) => answer.success)).toEqual(Array(12).fill(true));
    expect(await chain.usdcBalanceOf(chain.payTo)).toBe(payToBefore + 12n * 2000n);
    expect((await facilitator.settle(payloads[0]!, requirements())).success).toBe(false);
  });

  it('answers a refusal as the facilitator gave it', async () => {
    const refused = await facilitator.verify(await signed(chain.payerPrivateKeys[5]!), requirements({ amount: '3000' }));
    expect(refused).toMatchObject({ isValid: false, invalidReason: expect.any(String) });
  });

  it('fails the calls under way as an outage when its thread stops, and starts another at the next call', async () => {
    const payload = await signed(chain.payerPrivateKeys[6]!);
    const underWay = facilitator.verify(payload, requirements());
    await facilitator.dispose();
    await expect(underWay).rejects.toBeInstanceOf(FacilitatorResponseError);
    expect(await facilitator.verify(payload, requirements())).toMatchObject({ isValid: true });
  });

  it('fails its calls with the transport error while the chain cannot be reached at its start, and starts again at the next call', async () => {
    // The thread's chain URL leads to a port where nothing listens yet, then to a forwarder to the chain.
    const forwarder = createServer((client) => {
      const upstream = connect(Number(new URL(chain.rpcUrl).port), '127.0.0.1');
      client.pipe(upstream).pipe(client);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
    });
    await new Promise<void>((resolve) => forwarder.listen(0, '127.0.0.1', resolve));
    const { port } = forwarder.address() as { port: number };
    await new Promise((resolve) => forwarder.close(resolve));
    const unreachable = new FacilitatorThread(`http://127.0.0.1:${port}`);
    try {
      const failure = (await unreachable.getSupported().catch((error: unknown) => error)) as Error;
      expect(`${failure.name}: ${failure.message}`).toMatch(/HttpRequestError|fetch failed|ECONNREFUSED/);
      await new Promise<void>((resolve) => forwarder.listen(port, '127.0.0.1', resolve));
      await vi.waitFor(async () => expect((await unreachable.getSupported()).kinds.length).toBeGreaterThan(0), { timeout: 10_000, interval: 200 });
    } finally {
      await unreachable.dispose();
      forwarder.close();
    }
  });

  it('does not keep a process alive once its calls are answered', async () => {
    const source = fileURLToPath(new URL('../src/facilitator-thread.ts', import.meta.url));
    const script = `const { FacilitatorThread } = await import(${JSON.stringify(source)});
const supported = await new FacilitatorThread(${JSON.stringify(chain.rpcUrl)}).getSupported();
process.stdout.write(String(supported.kinds.length));`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += String(chunk)));
    child.stderr.on('data', (chunk: Buffer) => (output += String(chunk)));
    const exitCode = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      child.on('exit', (code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
    expect({ exitCode, output: output.trim() }).toEqual({ exitCode: 0, output: expect.stringMatching(/^[1-9]\d*$/) });
  });
});

describe('FacilitatorThread serving the EVM and the Solana dev chains at once', () => {
  let chain: DevChain;
  let solana: SolanaDevChain;
  let facilitator: FacilitatorThread;

  beforeAll(async () => {
    [chain, solana] = await Promise.all([DevChain.start(), SolanaDevChain.start()]);
    facilitator = new FacilitatorThread(chain.rpcUrl, { solanaRpcUrl: solana.rpcUrl });
  });
  afterAll(async () => {
    await facilitator?.dispose();
    await Promise.all([chain?.stop(), solana?.stop()]);
  });

  it('announces both networks, and settles a payment on each from one client', async () => {
    const { kinds } = await facilitator.getSupported();
    expect(kinds).toContainEqual(expect.objectContaining({ scheme: 'exact', network: chain.network }));
    expect(kinds).toContainEqual(expect.objectContaining({ scheme: 'exact', network: solana.network, extra: { feePayer: solana.feePayer } }));
    const evmPayTo = await chain.usdcBalanceOf(chain.payTo);
    const solanaPayTo = await solana.usdcBalanceOf(solana.payTo);
    const [evm, svm] = await Promise.all([
      signedPayment(chain, chain.payerPrivateKeys[0]!, requirementsOn(chain)).then((payload) => facilitator.settle(payload, requirementsOn(chain))),
      signedSolanaPayment(solana, solana.payerSecretKeys[0]!, solanaRequirementsOn(solana)).then((payload) => facilitator.settle(payload, solanaRequirementsOn(solana))),
    ]);
    expect([evm.success, svm.success]).toEqual([true, true]);
    expect(await chain.usdcBalanceOf(chain.payTo)).toBe(evmPayTo + 2000n);
    expect(await solana.usdcBalanceOf(solana.payTo)).toBe(solanaPayTo + 2000n);
  });
});
