import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, describePlan, parseUsdc, type PayerOptions, SpendLimitError } from '../src/index.js';
import { type LiveService, startLiveService } from '@fileshift/testing';
import { anvilPayerAccount, countingSigner, devChainPayer, recordingFetch, tinyPng, usdcBalanceOf } from './support/dev-chain.js';

/** Base mainnet USDC: allowed by a real-world payer, not what the dev chain asks for. */
const BASE_USDC = { network: 'eip155:8453', asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' };

describe('the payer refuses what its limits forbid: nothing signed, nothing moved (live service, dev chain)', () => {
  const account = anvilPayerAccount(5);
  const png = { data: tinyPng(), filename: 'dot.png' };
  let service: LiveService;
  let payerBalance: () => Promise<bigint>;

  beforeAll(async () => {
    service = await startLiveService();
    const balanceOf = usdcBalanceOf(service.devChain);
    payerBalance = () => balanceOf(account.address);
  });
  afterAll(async () => service?.stop());

  /** A client whose requests and signatures are recorded, paying with `limits`. */
  const clientWith = (limits: Partial<PayerOptions>) => {
    const recorder = recordingFetch();
    const signer = countingSigner(account);
    const payer = devChainPayer(service.devChain, signer.account, limits);
    return {
      client: createClient({ baseUrl: service.baseUrl, payer, fetch: recorder.fetch }),
      payer,
      signed: () => recorder.requests.filter((request) => request.signed),
      signatures: signer.signatures,
    };
  };

  it('a per-payment cap below the result price: refused before the job fee, nothing signed, no job started', async () => {
    const { client, payer, signed, signatures } = clientWith({ maxPerPayment: parseUsdc('0.01') });
    const before = await payerBalance();
    const error = await client.convertFile({ input: png, targetFormat: 'gif', idempotencyKey: 'sdk-refused-0001' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpendLimitError);
    expect(error).toMatchObject({ limit: 'per_payment_cap', idempotencyKey: 'sdk-refused-0001' });
    expect((error as SpendLimitError).jobId).toBeUndefined();
    expect((error as Error).message).toBe(
      `Payment refused (per_payment_cap): Convert dot.png (${png.data.length} bytes) to gif: job fee 0.002 + result 0.02 = 0.022 USDC at most; 0.02 USDC is over the per-payment cap of 0.01 USDC.`,
    );
    expect(signatures()).toBe(0);
    expect(signed()).toEqual([]);
    expect(payer.spent()).toBe(0n);
    expect(await payerBalance()).toBe(before);
  });

  it('a budget of 0.01 USDC: the job fee fits but fee + result do not, so nothing is paid (issue #16)', async () => {
    const { client, payer, signed, signatures } = clientWith({ budget: parseUsdc('0.01') });
    const before = await payerBalance();
    const error = await client.convertFile({ input: png, targetFormat: 'webp' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'SpendLimitError', limit: 'budget', message: expect.stringContaining('= 0.022 USDC at most, over the budget left: 0.01 of 0.01 USDC') });
    expect(signatures()).toBe(0);
    expect(signed()).toEqual([]);
    expect(payer.spent()).toBe(0n);
    expect(await payerBalance()).toBe(before);
  });

  it('a conversion is approved once as a whole, in words, and then both payments are made without asking again', async () => {
    const plans: string[] = [];
    const perPayment: bigint[] = [];
    const { client, payer, signatures } = clientWith({
      approvePlan: (plan) => (plans.push(describePlan(plan)), true),
      approve: ({ amount }) => (perPayment.push(amount), false),
    });
    const converted = await client.convertFile({ input: png, targetFormat: 'webp' });
    expect(plans).toEqual([`Convert dot.png (${png.data.length} bytes) to webp: job fee 0.002 + result 0.02 = 0.022 USDC at most`]);
    expect(perPayment).toEqual([]);
    expect(signatures()).toBe(2);
    expect(payer.spent()).toBe(22_000n);
    expect(converted.receipts.map((receipt) => receipt.amount)).toEqual(['2000', '20000']);
  });

  it('a conversion whose plan is declined pays nothing', async () => {
    const { client, signatures } = clientWith({ approvePlan: () => false, approve: () => true });
    const before = await payerBalance();
    const error = await client.convertFile({ input: png, targetFormat: 'webp' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'SpendLimitError', limit: 'approval', message: expect.stringMatching(/^Payment refused \(approval\): Convert dot\.png .* = 0\.022 USDC at most was not approved\.$/) });
    expect(signatures()).toBe(0);
    expect(await payerBalance()).toBe(before);
  });

  it('an asset that is not allowed (the dev-chain token must be listed explicitly) is refused before anything is signed', async () => {
    const { client, payer, signed, signatures } = clientWith({ allow: [BASE_USDC] });
    const before = await payerBalance();
    const error = await client.detectFile(png).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpendLimitError);
    expect(error).toMatchObject({ limit: 'network_or_asset', message: expect.stringContaining(`asset ${service.devChain.usdc} on ${service.devChain.network} is not allowed`) });
    expect(signatures()).toBe(0);
    expect(signed()).toEqual([]);
    expect(payer.spent()).toBe(0n);
    expect(await payerBalance()).toBe(before);
  });

  it('a cumulative budget: payments run until the next one would pass it, concurrent calls included', async () => {
    const { client, payer, signed, signatures } = clientWith({ budget: parseUsdc('0.005') });
    const before = await payerBalance();
    const outcomes = await Promise.allSettled([client.detectFile(png), client.detectFile(png), client.detectFile(png)]);
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(2);
    const refused = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected')!.reason;
    expect(refused).toMatchObject({ limit: 'budget', message: 'Payment refused (budget): 0.002 USDC is over the budget left: 0.001 of 0.005 USDC.' });
    expect(signatures()).toBe(2);
    expect(signed()).toHaveLength(2);
    expect(payer.spent()).toBe(4_000n);
    expect(await payerBalance()).toBe(before - 4_000n);
  });

  it('the approval hook sees each payment and can decline it', async () => {
    const asked: Array<{ amount: bigint; resource?: string }> = [];
    const { client, signed, signatures } = clientWith({ approve: ({ amount, resource }) => (asked.push({ amount, resource }), false) });
    const before = await payerBalance();
    const error = await client.detectFile(png).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'SpendLimitError', limit: 'approval', message: 'Payment refused (approval): 0.002 USDC was not approved.' });
    expect(asked).toEqual([{ amount: 2_000n, resource: `${service.baseUrl}/api/x402/v1/detect-file-type` }]);
    expect(signatures()).toBe(0);
    expect(signed()).toEqual([]);
    expect(await payerBalance()).toBe(before);
  });

  it('an approved payment is paid', async () => {
    const { client, payer, signatures } = clientWith({ approve: async ({ amount }) => amount <= parseUsdc('0.002') });
    const before = await payerBalance();
    expect((await client.detectFile(png)).receipt?.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    expect(signatures()).toBe(1);
    expect(payer.spent()).toBe(2_000n);
    expect(await payerBalance()).toBe(before - 2_000n);
  });
});
