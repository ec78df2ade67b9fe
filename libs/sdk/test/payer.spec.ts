import { generateKeyPairSigner } from '@solana/kit';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { createPayer, PAYMENT_IDENTIFIER_HEADER, SpendLimitError } from '../src/index.js';
import { countingSigner, paymentIdOf } from './support/dev-chain.js';
import { DISCOVERY_PATH, publishedChallenges } from '../src/published-challenges.js';

const NETWORK = 'eip155:31337';
const DEV_USDC = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const OTHER_TOKEN = '0x1111111111111111111111111111111111111111';
const PAY_TO = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const account = privateKeyToAccount('0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6');

const BASE_USDC = { network: 'eip155:8453', asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' };
const SOLANA_USDC = { network: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', asset: 'EPjFWJd5AufqSSqeM2qA1xwTyDp1vLBjNbFcJZ5kGsKD' };

const offer = (asset: string, amount = '2000', network = NETWORK) => ({ scheme: 'exact', network, asset, amount, payTo: PAY_TO, maxTimeoutSeconds: 300, extra: { name: 'USD Coin', version: '2' } });

/** The service's HTTP boundary, faked: a 402 with `accepts` until a request carries a payment, which it records. */
function challenging(accepts: ReturnType<typeof offer>[], paid: Array<{ asset: string }>): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const signature = request.headers.get('PAYMENT-SIGNATURE');
    if (signature) {
      paid.push((JSON.parse(atob(signature)) as { accepted: { asset: string } }).accepted);
      return new Response('{}', { status: 200 });
    }
    return challengeAnswer(accepts);
  };
}

/** A 402 answer with `accepts`, in the body and the PAYMENT-REQUIRED header. */
function challengeAnswer(accepts: ReturnType<typeof offer>[]): Response {
  const challenge = { x402Version: 2, resource: { url: 'http://fileshift.test/x', description: '', mimeType: '' }, accepts };
  return new Response(JSON.stringify(challenge), { status: 402, headers: { 'content-type': 'application/json', 'PAYMENT-REQUIRED': btoa(JSON.stringify(challenge)) } });
}

describe('createPayer', () => {
  const payer = (overrides = {}) => createPayer({ account, allow: [{ network: NETWORK, asset: DEV_USDC }], maxPerPayment: 30_000n, ...overrides });

  it('pays with the first offer its limits allow', async () => {
    const paid: Array<{ asset: string }> = [];
    const response = await payer().wrap(challenging([offer(OTHER_TOKEN), offer(DEV_USDC)], paid))('http://fileshift.test/x');
    expect(response.status).toBe(200);
    expect(paid).toEqual([expect.objectContaining({ asset: DEV_USDC })]);
  });

  it('refuses with a typed error, signing nothing, when no offer is allowed', async () => {
    const paid: Array<{ asset: string }> = [];
    const signer = countingSigner(account);
    const wrapped = payer({ account: signer.account }).wrap(challenging([offer(OTHER_TOKEN)], paid));
    const error = await wrapped('http://fileshift.test/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpendLimitError);
    expect(error).toMatchObject({ limit: 'network_or_asset', message: expect.stringContaining(`asset ${OTHER_TOKEN} on ${NETWORK} is not allowed`) });
    const capped = await payer().wrap(challenging([offer(DEV_USDC, '40000')], paid))('http://fileshift.test/x').catch((e: unknown) => e);
    expect(capped).toMatchObject({ name: 'SpendLimitError', limit: 'per_payment_cap' });
    const budget = await payer({ account: signer.account, budget: 1000n }).wrap(challenging([offer(DEV_USDC)], paid))('http://fileshift.test/x').catch((e: unknown) => e);
    expect(budget).toMatchObject({ name: 'SpendLimitError', limit: 'budget' });
    expect(signer.signatures()).toBe(0);
    expect(paid).toEqual([]);
  });

  it('pays a request with a body first from the challenge it saw; one its limits now refuse is asked for again', async () => {
    let price = '2000';
    const sent: Array<{ paid?: string }> = [];
    // A server whose price can change, refusing a payment of another amount with its current challenge; it publishes no discovery document.
    const service: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      if (new URL(request.url).pathname === DISCOVERY_PATH) return new Response('{}', { status: 404 });
      const signature = request.headers.get('PAYMENT-SIGNATURE');
      const paid = signature ? (JSON.parse(atob(signature)) as { accepted: { amount: string } }).accepted.amount : undefined;
      sent.push({ paid });
      if (paid === price) return new Response('{}', { status: 200 });
      return challengeAnswer([offer(DEV_USDC, price)]);
    };
    const paying = payer().wrap(service);
    const post = () => paying('http://fileshift.test/convert', { method: 'POST', body: 'the upload' });
    expect((await post()).status).toBe(200);
    expect((await post()).status).toBe(200);
    expect(sent).toEqual([{}, { paid: '2000' }, { paid: '2000' }]);
    // The price rose past the cap: paid first at the seen price, answered with the current challenge, which is refused.
    price = '40000';
    await expect(post()).rejects.toMatchObject({ limit: 'per_payment_cap' });
    expect(sent.slice(3)).toEqual([{ paid: '2000' }]);
    // It fell within the limits again: the seen challenge (40000) is refused by the cap, so the request asks for the
    // current one unpaid, as a first request does, and pays it; the next one is paid first.
    price = '3000';
    expect((await post()).status).toBe(200);
    expect(sent.slice(4)).toEqual([{}, { paid: '3000' }]);
    expect((await post()).status).toBe(200);
    expect(sent.slice(6)).toEqual([{ paid: '3000' }]);
  });

  it('pays a first request with a body from the challenge its service publishes, reading the document once; a stale one costs one retry', async () => {
    let price = '2000';
    const sent: Array<{ paid?: string }> = [];
    let documents = 0;
    const challenge = (amount: string) => ({ x402Version: 2, resource: { url: 'https://public.example/convert', description: '', mimeType: '' }, accepts: [offer(DEV_USDC, amount)] });
    const published = challenge(price);
    // Published under its public URL: the payer reaches it at another origin (a proxy), and matches it by path.
    const document = { resources: [{ resource: 'https://public.example/convert', method: 'POST', paymentRequired: published }, { resource: 'https://public.example/x', method: 'POST', paymentRequired: { x402Version: 2 } }] };
    const service: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      if (new URL(request.url).pathname === DISCOVERY_PATH) return documents++, Response.json(document);
      const signature = request.headers.get('PAYMENT-SIGNATURE');
      const paid = signature ? (JSON.parse(atob(signature)) as { accepted: { amount: string } }).accepted.amount : undefined;
      sent.push({ paid });
      if (paid === price) return new Response('{}', { status: 200 });
      return challengeAnswer([offer(DEV_USDC, price)]);
    };
    const paying = payer().wrap(service);
    const post = (path = '/convert') => paying(`http://fileshift.test${path}`, { method: 'POST', body: 'the upload' });
    expect((await post()).status).toBe(200);
    expect(sent).toEqual([{ paid: '2000' }]);
    // A published entry that is no challenge is ignored: that resource is paid after its 402, without reading the document again.
    expect((await post('/x')).status).toBe(200);
    expect(sent.slice(1)).toEqual([{}, { paid: '2000' }]);
    expect(documents).toBe(1);
    // The price changed since: the payment signed from the published challenge is refused, the current one paid once.
    price = '3000';
    expect((await post()).status).toBe(200);
    expect(sent.slice(3)).toEqual([{ paid: '2000' }, { paid: '3000' }]);
    expect(documents).toBe(1);
  });

  it('reads the published challenges of a discovery document by method and path, at the origin it was read from', () => {
    const paymentRequired = { x402Version: 2, resource: { url: 'https://public.example/api/convert' }, accepts: [offer(DEV_USDC)], extensions: { 'payment-identifier': { info: { required: false } } } };
    const found = publishedChallenges(
      { resources: [{ resource: 'https://public.example/api/convert', method: 'post', paymentRequired }, { resource: 'https://public.example/api/result', method: 'GET' }, null, { resource: 'not a url', method: 'POST', paymentRequired }] },
      'http://127.0.0.1:3000',
    );
    expect([...found]).toEqual([['POST http://127.0.0.1:3000/api/convert', paymentRequired]]);
    // Kept as published, not reshaped by the validation: the payment is signed from exactly what the service offers.
    expect(found.get('POST http://127.0.0.1:3000/api/convert')).toBe(paymentRequired);
    expect(publishedChallenges({ resources: 'none' }, 'http://x').size).toBe(0);
    expect(publishedChallenges(null, 'http://x').size).toBe(0);
  });

  it('puts the request\'s payment identifier in each payment it signs for it, without sending the header; makes one per request when absent', async () => {
    const seen: Array<{ id?: string; header: boolean }> = [];
    const declaring: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      seen.push({ id: paymentIdOf(request.headers.get('PAYMENT-SIGNATURE')), header: request.headers.has(PAYMENT_IDENTIFIER_HEADER) });
      if (request.headers.has('PAYMENT-SIGNATURE')) return new Response('{}', { status: 200 });
      const challenge = { x402Version: 2, resource: { url: 'http://fileshift.test/x', description: '', mimeType: '' }, accepts: [offer(DEV_USDC)], extensions: { 'payment-identifier': { info: { required: false } } } };
      return new Response(JSON.stringify(challenge), { status: 402, headers: { 'PAYMENT-REQUIRED': btoa(JSON.stringify(challenge)) } });
    };
    const paying = payer().wrap(declaring);
    await paying('http://fileshift.test/x', { headers: { [PAYMENT_IDENTIFIER_HEADER]: 'pay_mine_0123456789abcdef' } });
    await paying('http://fileshift.test/x');
    await paying('http://fileshift.test/x');
    expect(seen.map((request) => request.header)).toEqual([false, false, false, false, false, false]);
    const ids = seen.filter((request) => request.id).map((request) => request.id);
    expect(ids[0]).toBe('pay_mine_0123456789abcdef');
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
    // A challenge that does not declare the extension gets a payment without it.
    const plain: Array<{ asset: string }> = [];
    let signature: string | null = null;
    await payer().wrap(async (input, init) => {
      signature = new Request(input, init).headers.get('PAYMENT-SIGNATURE') ?? signature;
      return challenging([offer(DEV_USDC)], plain)(input, init);
    })('http://fileshift.test/x');
    expect(plain).toHaveLength(1);
    expect(paymentIdOf(signature)).toBeUndefined();
  });

  it('asks the approval hook and respects a no; withApproval swaps only the hook', async () => {
    const paid: Array<{ asset: string }> = [];
    const asking = payer({ approve: () => false });
    await expect(asking.wrap(challenging([offer(DEV_USDC)], paid))('http://fileshift.test/x')).rejects.toMatchObject({ limit: 'approval' });
    const approving = asking.withApproval(() => true);
    expect((await approving.wrap(challenging([offer(DEV_USDC)], paid))('http://fileshift.test/x')).status).toBe(200);
    expect(asking.spent()).toBe(2000n);
    expect(paid).toHaveLength(1);
  });

  it('pays a default asset of the x402 client (Base USDC) only when it is listed too, and names the refused payment', async () => {
    const paid: Array<{ asset: string }> = [];
    const error = await payer().wrap(challenging([offer(BASE_USDC.asset, '2000', BASE_USDC.network)], paid))('http://fileshift.test/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpendLimitError);
    expect(error).toMatchObject({ limit: 'network_or_asset', payment: { ...BASE_USDC, payTo: PAY_TO, amount: 2000n } });
    expect(paid).toEqual([]);
  });

  it('refuses, typed, offers only on networks it has no signer for', async () => {
    const paid: Array<{ asset: string }> = [];
    const error = await payer().wrap(challenging([offer(SOLANA_USDC.asset, '2000', SOLANA_USDC.network)], paid))('http://fileshift.test/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpendLimitError);
    expect(error).toMatchObject({ limit: 'network_or_asset', message: expect.stringContaining('no offered network is one this payer signs for') });
    expect(paid).toEqual([]);
  });

  it('with a Solana signer, loads the Solana scheme when it pays: a Solana offer reaches its limits', async () => {
    const paid: Array<{ asset: string }> = [];
    const solanaPayer = payer({ allow: [{ network: SOLANA_USDC.network, asset: OTHER_TOKEN }], svmSigner: await generateKeyPairSigner() });
    const error = await solanaPayer.wrap(challenging([offer(SOLANA_USDC.asset, '2000', SOLANA_USDC.network)], paid))('http://fileshift.test/x').catch((e: unknown) => e);
    // Without the scheme the offer would be rejected as a network with no signer; with it, the allow-list refuses the asset.
    expect(error).toMatchObject({ limit: 'network_or_asset', message: expect.stringContaining(`asset ${SOLANA_USDC.asset} on ${SOLANA_USDC.network} is not allowed`) });
    expect(paid).toEqual([]);
  });

  it('will not allow a Solana network without a Solana signer', () => {
    expect(() => payer({ allow: [SOLANA_USDC] })).toThrow('The payer allows a Solana network but has no svmSigner to sign with.');
  });
});
