import type { PaymentRequirements } from '@x402/core/types';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import artifact from '../src/test-usdc.artifact.json' with { type: 'json' };
import { compileTestUsdc } from '../src/compile-test-usdc.js';
import { AnvilProcess } from '../src/anvil-process.js';
import { DevChain } from '../src/dev-chain.js';
import { INITIAL_USDC_PER_ACCOUNT } from '../src/anvil-accounts.js';
import { LocalFacilitatorClient } from '../src/local-facilitator.js';
import { requirementsOn, signedPayment } from './support/payments.js';

describe('test USDC artifact', () => {
  it('is exactly what solc makes of contracts/TestUsdc.sol', () => {
    const fresh = compileTestUsdc();
    expect(fresh.bytecode).toBe(artifact.bytecode);
    expect(fresh.abi).toEqual(artifact.abi);
  });
});

describe('dev chain with real settlement (anvil)', () => {
  let chain: DevChain;
  let facilitator: LocalFacilitatorClient;

  beforeAll(async () => {
    chain = await DevChain.start();
    facilitator = new LocalFacilitatorClient(chain);
  });
  afterAll(async () => {
    facilitator?.dispose();
    await chain?.stop();
  });

  const requirements = (overrides: Partial<PaymentRequirements> = {}) => requirementsOn(chain, overrides);
  const pay = async (key: `0x${string}`, accepted: PaymentRequirements) => ({ account: privateKeyToAccount(key), payload: await signedPayment(chain, key, accepted) });

  it('deploys the token and funds every default account', async () => {
    expect(await chain.usdcBalanceOf(chain.payTo)).toBe(INITIAL_USDC_PER_ACCOUNT);
    for (const key of chain.payerPrivateKeys) {
      expect(await chain.usdcBalanceOf(privateKeyToAccount(key).address)).toBe(INITIAL_USDC_PER_ACCOUNT);
    }
  });

  it('attaching through an RPC URL reuses the deployed token instead of deploying another', async () => {
    const attached = await DevChain.start({ rpcUrl: chain.rpcUrl });
    expect(attached.usdcAddress).toBe(chain.usdcAddress);
    expect(await attached.usdcBalanceOf(attached.payTo)).toBe(await chain.usdcBalanceOf(chain.payTo));
    await attached.stop();
    await chain.assertReachable();
  });

  it('verifies and settles an x402 exact payment made by the official client: exactly the amount moves', async () => {
    const [payerKey] = chain.payerPrivateKeys;
    const { account, payload } = await pay(payerKey!, requirements());
    const payToBefore = await chain.usdcBalanceOf(chain.payTo);
    const payerBefore = await chain.usdcBalanceOf(account.address);

    const verified = await facilitator.verify(payload, requirements());
    expect(verified).toMatchObject({ isValid: true });
    const settled = await facilitator.settle(payload, requirements());
    expect(settled.success).toBe(true);
    expect(settled.transaction).toMatch(/^0x[0-9a-f]{64}$/);

    expect(await chain.usdcBalanceOf(chain.payTo)).toBe(payToBefore + 2000n);
    expect(await chain.usdcBalanceOf(account.address)).toBe(payerBefore - 2000n);

    // The same signed payload again: the nonce is used, nothing moves.
    expect((await facilitator.verify(payload, requirements())).isValid).toBe(false);
    const replay = await facilitator.settle(payload, requirements());
    expect(replay.success).toBe(false);
    expect(await chain.usdcBalanceOf(chain.payTo)).toBe(payToBefore + 2000n);
  });

  it('refuses a payload that does not match the requirements (amount, payTo)', async () => {
    const { payload } = await pay(chain.payerPrivateKeys[1]!, requirements());
    expect((await facilitator.verify(payload, requirements({ amount: '3000' }))).isValid).toBe(false);
    expect((await facilitator.verify(payload, requirements({ payTo: privateKeyToAccount(chain.payerPrivateKeys[2]!).address }))).isValid).toBe(false);
  });

  it('refuses a payer without enough balance', async () => {
    const { payload } = await pay(chain.payerPrivateKeys[3]!, requirements({ amount: String(INITIAL_USDC_PER_ACCOUNT + 1n) }));
    const verified = await facilitator.verify(payload, requirements({ amount: String(INITIAL_USDC_PER_ACCOUNT + 1n) }));
    expect(verified.isValid).toBe(false);
    // The facilitator reports it as a failed simulation of transferWithAuthorization.
    expect(verified.invalidReason).toMatch(/balance|simulation/i);
  });

  it('settles again after another facilitator on the same chain (a second API instance) settled in between', async () => {
    const { payload: first } = await pay(chain.payerPrivateKeys[4]!, requirements());
    expect((await facilitator.settle(first, requirements())).success).toBe(true);

    // Another facilitator on the same chain and account (a second API instance) settles in between.
    const other = new LocalFacilitatorClient(chain);
    const { payload: between } = await pay(chain.payerPrivateKeys[5]!, requirements());
    expect((await other.settle(between, requirements())).success).toBe(true);
    other.dispose();

    const payToBefore = await chain.usdcBalanceOf(chain.payTo);
    const { payload: next } = await pay(chain.payerPrivateKeys[4]!, requirements());
    const settled = await facilitator.settle(next, requirements());
    expect(settled).toMatchObject({ success: true });
    expect(await chain.usdcBalanceOf(chain.payTo)).toBe(payToBefore + 2000n);
  });

  it('settles every payment when three facilitators (three API instances) settle ninety at the same time, each from its own account', async () => {
    const others = [new LocalFacilitatorClient(chain), new LocalFacilitatorClient(chain)];
    const facilitators = [facilitator, ...others];
    const payToBefore = await chain.usdcBalanceOf(chain.payTo);
    const payments = await Promise.all(Array.from({ length: 90 }, (_, i) => pay(chain.payerPrivateKeys[i % 4]!, requirements())));
    const settled = await Promise.all(payments.map(({ payload }, i) => facilitators[i % facilitators.length]!.settle(payload, requirements())));
    for (const other of others) other.dispose();
    expect(settled.map((s) => s.success)).toEqual(Array(90).fill(true));
    expect(await chain.usdcBalanceOf(chain.payTo)).toBe(payToBefore + 90n * 2000n);
  });
});

describe('several processes attaching to one fresh anvil at once', () => {
  it('agree on one token, deployed once, with every account funded before any of them returns', async () => {
    const anvil = await AnvilProcess.start();
    try {
      const chains = await Promise.all([1, 2, 3].map(() => DevChain.start({ rpcUrl: anvil.rpcUrl })));
      expect(new Set(chains.map((chain) => chain.usdcAddress)).size).toBe(1);
      for (const chain of chains) {
        expect(await chain.usdcBalanceOf(chain.payTo)).toBe(INITIAL_USDC_PER_ACCOUNT);
        expect(await chain.usdcBalanceOf(privateKeyToAccount(chain.payerPrivateKeys.at(-1)!).address)).toBe(INITIAL_USDC_PER_ACCOUNT);
      }
    } finally {
      await anvil.stop();
    }
  });
});
