import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import {
  type FacilitatorClient,
  FacilitatorResponseError,
  FacilitatorTimeoutError,
  HTTPFacilitatorClient,
  type HTTPRequestContext,
  x402HTTPResourceServer,
  x402ResourceServer,
} from '@x402/core/server';
import { type PaymentPayload, type PaymentRequirements, SettleError, VerifyError } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/server';
import { HttpRequestError } from 'viem';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { GuardedFacilitatorClient } from '../src/guarded-facilitator.client.js';
import { encodeHeader } from '../src/payment-header.js';

const payload = {} as PaymentPayload;
const requirements: PaymentRequirements = {
  scheme: 'exact',
  network: 'eip155:8453',
  asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  amount: '2000',
  payTo: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  maxTimeoutSeconds: 300,
  extra: {},
};
const settled = { success: true, transaction: '0xabc', network: 'eip155:31337' as const };
const passing = async () => undefined;
const failing = async () => Promise.reject(new Error('ECONNREFUSED'));

function facilitator(overrides: Partial<FacilitatorClient>): FacilitatorClient {
  return {
    verify: async () => ({ isValid: true }),
    settle: async () => settled,
    getSupported: async () => ({ kinds: [{ x402Version: 2, scheme: 'exact', network: 'eip155:8453' }], extensions: [], signers: {} }),
    ...overrides,
  };
}

function throwing(error: unknown): Partial<FacilitatorClient> {
  return { verify: async () => Promise.reject(error), settle: async () => Promise.reject(error) };
}

describe('GuardedFacilitatorClient', () => {
  it('does not probe accepted payments', async () => {
    const probe = vi.fn(passing);
    const guarded = new GuardedFacilitatorClient(facilitator({}), probe);
    expect(await guarded.verify(payload, requirements)).toEqual({ isValid: true });
    expect(await guarded.settle(payload, requirements)).toEqual(settled);
    expect(probe).not.toHaveBeenCalled();
  });

  it('keeps a refusal a refusal when the probe passes', async () => {
    const guarded = new GuardedFacilitatorClient(facilitator({ verify: async () => ({ isValid: false, invalidReason: 'invalid_signature' }) }), passing);
    expect(await guarded.verify(payload, requirements)).toEqual({ isValid: false, invalidReason: 'invalid_signature' });
    const refusal = new VerifyError(400, { isValid: false, invalidReason: 'expired' });
    const thrown = new GuardedFacilitatorClient(facilitator(throwing(refusal)), passing);
    await expect(thrown.verify(payload, requirements)).rejects.toBe(refusal);
    const settleRefusal = new SettleError(400, { success: false, errorReason: 'transaction_failed', transaction: '', network: 'eip155:8453' });
    await expect(new GuardedFacilitatorClient(facilitator(throwing(settleRefusal))).settle(payload, requirements)).rejects.toBe(settleRefusal);
  });

  it('turns a refusal into unavailability when the probe fails too (our outage, not the payer)', async () => {
    const refused = new GuardedFacilitatorClient(facilitator({ settle: async () => ({ ...settled, success: false, errorReason: 'transaction_failed' }) }), failing);
    await expect(refused.settle(payload, requirements)).rejects.toBeInstanceOf(FacilitatorResponseError);
    const thrown = new GuardedFacilitatorClient(facilitator(throwing(new VerifyError(400, { isValid: false }))), failing);
    await expect(thrown.verify(payload, requirements)).rejects.toThrow(/facilitator verify failed: ECONNREFUSED/);
  });

  it("refuses the payment when the facilitator's own code fails on it and the probe passes", async () => {
    const heard = vi.fn();
    const internal = new TypeError("Cannot read properties of undefined (reading 'from')");
    const guarded = new GuardedFacilitatorClient(facilitator(throwing(internal)), passing, heard);

    const verifying = guarded.verify(payload, requirements);
    await expect(verifying).rejects.toBeInstanceOf(VerifyError);
    await expect(verifying).rejects.not.toBeInstanceOf(FacilitatorResponseError);
    const verifyError = (await verifying.catch((error: unknown) => error)) as VerifyError;
    expect(verifyError).toMatchObject({ invalidReason: 'invalid_payload', message: 'invalid_payload: the facilitator could not process this payment payload', cause: internal });

    const settleError = (await guarded.settle(payload, requirements).catch((error: unknown) => error)) as SettleError;
    expect(settleError).toBeInstanceOf(SettleError);
    expect(settleError).toMatchObject({ errorReason: 'invalid_payload', network: 'eip155:8453', transaction: '' });
    expect(settleError.message).not.toMatch(/properties|from/);
    expect(heard.mock.calls).toEqual([
      ['verify', internal],
      ['settle', internal],
    ]);
  });

  it('refuses such a payment without a probe too', async () => {
    const guarded = new GuardedFacilitatorClient(facilitator(throwing(new RangeError('Invalid array length'))));
    await expect(guarded.verify(payload, requirements)).rejects.toMatchObject({ name: 'VerifyError', invalidReason: 'invalid_payload' });
  });

  it("treats the facilitator's own failure as our outage when the probe fails", async () => {
    const guarded = new GuardedFacilitatorClient(facilitator(throwing(new TypeError('x is undefined'))), failing);
    await expect(guarded.verify(payload, requirements)).rejects.toBeInstanceOf(FacilitatorResponseError);
    await expect(guarded.settle(payload, requirements)).rejects.toBeInstanceOf(FacilitatorResponseError);
  });

  it('treats transport failures as an outage without asking the probe', async () => {
    const probe = vi.fn(passing);
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:4020'), { code: 'ECONNREFUSED' });
    const transportFailures: unknown[] = [
      new TypeError('fetch failed', { cause: refused }),
      new TypeError('fetch failed'),
      new Error('wrapped', { cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) }),
      new Error('other side closed', { cause: Object.assign(new Error('closed'), { code: 'UND_ERR_SOCKET' }) }),
      new AggregateError([refused], 'all addresses failed'),
      new DOMException('The operation was aborted', 'AbortError'),
      new DOMException('The operation timed out', 'TimeoutError'),
      new HttpRequestError({ url: 'http://127.0.0.1:8545', details: 'fetch failed' }),
      new Error('Facilitator verify failed (503): Service Unavailable'),
      new Error('Facilitator settle failed (502): <html>Bad Gateway</html>'),
      new Error('Facilitator verify failed (401): unauthorized'),
      new FacilitatorTimeoutError('verify', 30_000),
    ];
    for (const error of transportFailures) {
      const guarded = new GuardedFacilitatorClient(facilitator(throwing(error)), probe);
      await expect(guarded.verify(payload, requirements), String(error)).rejects.toBeInstanceOf(FacilitatorResponseError);
      await expect(guarded.settle(payload, requirements), String(error)).rejects.toBeInstanceOf(FacilitatorResponseError);
    }
    expect(probe).not.toHaveBeenCalled();
  });

  it('treats a facilitator answering 4xx without a verdict as refusing the payment', async () => {
    const guarded = new GuardedFacilitatorClient(facilitator(throwing(new Error('Facilitator verify failed (400): {"error":"bad request"}'))), passing);
    await expect(guarded.verify(payload, requirements)).rejects.toMatchObject({ name: 'VerifyError', invalidReason: 'invalid_payload' });
  });

  it('keeps getSupported failures an outage', async () => {
    const guarded = new GuardedFacilitatorClient(facilitator({ getSupported: async () => Promise.reject(new TypeError('boom')) }));
    await expect(guarded.getSupported()).rejects.toThrow(/facilitator supported failed: boom/);
  });
});

describe('GuardedFacilitatorClient over the real HTTPFacilitatorClient', () => {
  let server: Server;
  let url: string;
  let answer: (path: string) => { status: number; body: string } | 'hang' = () => ({ status: 200, body: '{}' });

  beforeAll(async () => {
    server = createServer((request, response) => {
      const reply = answer(request.url ?? '');
      if (reply === 'hang') return;
      response.writeHead(reply.status, { 'content-type': 'application/json' }).end(reply.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const guarded = (target = url, timeoutMs = 5_000) => new GuardedFacilitatorClient(new HTTPFacilitatorClient({ url: target, timeoutMs }));

  it('answers a facilitator 5xx, a broken 2xx body and a timeout as an outage', async () => {
    answer = () => ({ status: 500, body: 'internal error' });
    await expect(guarded().verify(payload, requirements)).rejects.toBeInstanceOf(FacilitatorResponseError);
    answer = () => ({ status: 503, body: '{"error":"overloaded"}' });
    await expect(guarded().settle(payload, requirements)).rejects.toBeInstanceOf(FacilitatorResponseError);
    answer = () => ({ status: 200, body: 'not json' });
    await expect(guarded().verify(payload, requirements)).rejects.toBeInstanceOf(FacilitatorResponseError);
    answer = () => 'hang';
    await expect(guarded(url, 200).verify(payload, requirements)).rejects.toBeInstanceOf(FacilitatorResponseError);
  });

  it('answers an unreachable facilitator as an outage', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(guarded(`http://127.0.0.1:${port}`).verify(payload, requirements)).rejects.toBeInstanceOf(FacilitatorResponseError);
  });

  it("keeps the facilitator's verdict, and refuses on a 4xx without one", async () => {
    answer = () => ({ status: 400, body: '{"isValid":false,"invalidReason":"invalid_exact_evm_payload_signature"}' });
    await expect(guarded().verify(payload, requirements)).rejects.toMatchObject({ name: 'VerifyError', invalidReason: 'invalid_exact_evm_payload_signature' });
    answer = () => ({ status: 400, body: 'payload.authorization is required' });
    await expect(guarded().verify(payload, requirements)).rejects.toMatchObject({ name: 'VerifyError', invalidReason: 'invalid_payload' });
    answer = () => ({ status: 422, body: '{"error":"unprocessable"}' });
    await expect(guarded().settle(payload, requirements)).rejects.toMatchObject({ name: 'SettleError', errorReason: 'invalid_payload' });
  });
});

describe('how x402HTTPResourceServer answers what the guarded client throws', () => {
  const accepts = {
    scheme: 'exact',
    network: 'eip155:8453' as const,
    payTo: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    maxTimeoutSeconds: 300,
    price: { amount: '2000', asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', extra: { name: 'USD Coin', version: '2' } },
  };

  async function routeServer(inner: Partial<FacilitatorClient>, probe?: () => Promise<void>) {
    const resourceServer = new x402ResourceServer(new GuardedFacilitatorClient(facilitator(inner), probe)).register('eip155:8453', new ExactEvmScheme());
    const server = new x402HTTPResourceServer(resourceServer, { accepts, description: 'test' });
    await server.initialize();
    const context = (paymentHeader?: string): HTTPRequestContext => ({
      adapter: {
        getHeader: (name) => (name.toLowerCase() === 'payment-signature' ? paymentHeader : undefined),
        getMethod: () => 'POST',
        getPath: () => '/paid',
        getUrl: () => 'http://localhost/paid',
        getAcceptHeader: () => 'application/json',
        getUserAgent: () => 'test',
      },
      path: '/paid',
      method: 'POST',
      paymentHeader,
    });
    const challenge = await server.processHTTPRequest(context());
    if (challenge.type !== 'payment-error') throw new Error('expected a challenge');
    const [accepted] = decodePaymentRequiredHeader(challenge.response.headers['PAYMENT-REQUIRED']!).accepts;
    const payment: PaymentPayload = { x402Version: 2, accepted: accepted!, payload: { signature: '0x00', authorization: {} } };
    return { server, context: () => context(encodeHeader(payment)), payment, accepted: accepted! };
  }

  it('answers a refused verification with a 402 carrying invalid_payload', async () => {
    const { server, context } = await routeServer(throwing(new TypeError('boom')), passing);
    const result = await server.processHTTPRequest(context());
    expect(result.type).toBe('payment-error');
    if (result.type !== 'payment-error') return;
    expect(result.response.status).toBe(402);
    expect(decodePaymentRequiredHeader(result.response.headers['PAYMENT-REQUIRED']!).error).toBe('invalid_payload: the facilitator could not process this payment payload');
  });

  it('answers a refused settlement with a failed settlement carrying invalid_payload', async () => {
    const { server, payment, accepted } = await routeServer({ settle: async () => Promise.reject(new TypeError('boom')) }, passing);
    const settlement = await server.processSettlement(payment, accepted);
    expect(settlement).toMatchObject({ success: false, errorReason: 'invalid_payload' });
  });

  it('lets an outage through as FacilitatorResponseError (the gate answers 503)', async () => {
    const { server, context, payment, accepted } = await routeServer(throwing(new TypeError('fetch failed')));
    await expect(server.processHTTPRequest(context())).rejects.toBeInstanceOf(FacilitatorResponseError);
    await expect(server.processSettlement(payment, accepted)).rejects.toBeInstanceOf(FacilitatorResponseError);
  });
});
