import type { PaymentRequirements } from '@x402/core/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SolanaDevChain } from '../src/solana-dev-chain.js';
import { solanaDevKey } from '../src/solana-dev-keys.js';
import { LocalSolanaFacilitatorClient } from '../src/solana-facilitator.js';
import { signedSolanaPayment, solanaRequirementsOn } from './support/solana-payments.js';

describe('x402 exact payments on the Solana dev chain: official client and facilitator, real execution', () => {
  let chain: SolanaDevChain;
  let facilitator: LocalSolanaFacilitatorClient;

  beforeAll(async () => {
    chain = await SolanaDevChain.start();
    facilitator = await LocalSolanaFacilitatorClient.start(chain);
  });
  afterAll(async () => {
    await chain?.stop();
  });

  const requirements = (overrides: Partial<PaymentRequirements> = {}) => solanaRequirementsOn(chain, overrides);
  const balances = async (payerIndex: number) => ({ payTo: await chain.usdcBalanceOf(chain.payTo), payer: await chain.usdcBalanceOf(chain.payerAddresses[payerIndex]!) });

  it('announces the dev network with its fee payer', async () => {
    expect((await facilitator.getSupported()).kinds).toContainEqual(expect.objectContaining({ x402Version: 2, scheme: 'exact', network: chain.network, extra: { feePayer: chain.feePayer } }));
  });

  it('verifies and settles a payment: the chain executes it, and exactly the amount moves', async () => {
    const before = await balances(0);
    const payload = await signedSolanaPayment(chain, chain.payerSecretKeys[0]!, requirements());
    expect(await facilitator.verify(payload, requirements())).toMatchObject({ isValid: true, payer: chain.payerAddresses[0] });
    const settled = await facilitator.settle(payload, requirements());
    expect(settled).toMatchObject({ success: true, network: chain.network, payer: chain.payerAddresses[0], transaction: expect.any(String) });
    expect(await balances(0)).toEqual({ payTo: before.payTo + 2000n, payer: before.payer - 2000n });
    const { value } = (await chain.rpc('getSignatureStatuses', [[settled.transaction]])) as { value: unknown[] };
    expect(value).toEqual([expect.objectContaining({ err: null, confirmationStatus: 'finalized' })]);
  });

  it('settles several payments in a row and side by side', async () => {
    const before = await chain.usdcBalanceOf(chain.payTo);
    for (let i = 0; i < 3; i++) {
      expect(await facilitator.settle(await signedSolanaPayment(chain, chain.payerSecretKeys[1]!, requirements()), requirements())).toMatchObject({ success: true });
    }
    const payloads = await Promise.all([2, 3, 4, 2].map((i) => signedSolanaPayment(chain, chain.payerSecretKeys[i]!, requirements())));
    const settled = await Promise.all(payloads.map((payload) => facilitator.settle(payload, requirements())));
    expect(settled.map((answer) => answer.success)).toEqual([true, true, true, true]);
    expect(new Set(settled.map((answer) => answer.transaction)).size).toBe(4);
    expect(await chain.usdcBalanceOf(chain.payTo)).toBe(before + 7n * 2000n);
  });

  it('refuses an underpayment either way round, and moves nothing', async () => {
    const before = await balances(5);
    const signedFor2000 = await signedSolanaPayment(chain, chain.payerSecretKeys[5]!, requirements());
    expect(await facilitator.verify(signedFor2000, requirements({ amount: '3000' }))).toMatchObject({ isValid: false, invalidReason: 'invalid_exact_svm_payload_amount_mismatch' });
    expect(await facilitator.settle(signedFor2000, requirements({ amount: '3000' }))).toMatchObject({ success: false, transaction: '' });
    const signedFor1000 = await signedSolanaPayment(chain, chain.payerSecretKeys[5]!, requirements({ amount: '1000' }));
    expect(await facilitator.settle(signedFor1000, requirements())).toMatchObject({ success: false, errorReason: 'invalid_exact_svm_payload_amount_mismatch' });
    expect(await balances(5)).toEqual(before);
  });

  it('refuses a payment in another token, and moves nothing', async () => {
    const before = await balances(5);
    const payload = await signedSolanaPayment(chain, chain.payerSecretKeys[5]!, requirements());
    const otherMint = requirements({ asset: '4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU' });
    expect(await facilitator.settle(payload, otherMint)).toMatchObject({ success: false, errorReason: 'invalid_exact_svm_payload_mint_mismatch' });
    expect(await balances(5)).toEqual(before);
  });

  it('refuses a replayed payment, in the facilitator that settled it and in another one: it moves once', async () => {
    const before = await balances(6);
    const payload = await signedSolanaPayment(chain, chain.payerSecretKeys[6]!, requirements());
    expect(await facilitator.settle(payload, requirements())).toMatchObject({ success: true });
    expect(await facilitator.settle(payload, requirements())).toMatchObject({ success: false });
    const another = await LocalSolanaFacilitatorClient.start(chain);
    expect(await another.verify(payload, requirements())).toMatchObject({ isValid: false, invalidMessage: expect.stringMatching(/AlreadyProcessed/) });
    expect(await another.settle(payload, requirements())).toMatchObject({ success: false });
    expect(await balances(6)).toEqual({ payTo: before.payTo + 2000n, payer: before.payer - 2000n });
  });

  it('refuses a payment the chain cannot execute (a payer without test USDC): nothing is settled that did not run', async () => {
    const before = await chain.usdcBalanceOf(chain.payTo);
    const payload = await signedSolanaPayment(chain, solanaDevKey('a payer the chain never funded').secretKey, requirements());
    expect(await facilitator.verify(payload, requirements())).toMatchObject({ isValid: false, invalidReason: 'invalid_exact_svm_transaction_simulation_failed' });
    expect(await facilitator.settle(payload, requirements())).toMatchObject({ success: false });
    expect(await chain.usdcBalanceOf(chain.payTo)).toBe(before);
  });
});

