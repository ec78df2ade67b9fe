import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { Controller, HttpCode, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DevChain, LocalFacilitatorClient } from '@fileshift/devchain';
import { x402ResourceServer } from '@x402/core/server';
import type { PaymentRequired, PaymentRequirements } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/server';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeHeader, GuardedFacilitatorClient, Paid, Payment, type RoutePayment, X402Module } from '../src/index.js';
import { MemoryLedger } from './support/memory-ledger.js';

@Controller()
class CoffeeController {
  @Post('coffee')
  @HttpCode(200)
  @Paid({ name: 'buyCoffee', description: 'A coffee' })
  async coffee(@Payment() payment: RoutePayment) {
    await (await payment.collect(1000)).settle();
    return { served: 'coffee' };
  }
}

/**
 * The attack run's finding, end to end with the dev-mode wiring (in-process facilitator behind the
 * guarded client with the chain probe): a malformed payment header used to be answered 503
 * "dependency_unavailable" (payload `{}`, a bad authorization) or 500 (accepted without network).
 */
describe('a malformed payment header is refused with its reason, not answered as an outage', () => {
  let chain: DevChain;
  let facilitator: LocalFacilitatorClient;
  let app: NestFastifyApplication;
  let url: string;
  let accepted: PaymentRequirements;
  const ledger = new MemoryLedger();

  beforeAll(async () => {
    chain = await DevChain.start();
    facilitator = new LocalFacilitatorClient(chain);
    const guarded = new GuardedFacilitatorClient(facilitator, () => chain.assertReachable());

    @Module({
      imports: [
        X402Module.forRootAsync({
          useFactory: () => ({
            resourceServer: new x402ResourceServer(guarded).register(chain.network, new ExactEvmScheme()),
            accepts: [{ scheme: 'exact' as const, network: chain.network, asset: chain.usdcAddress, payTo: chain.payTo, extra: { name: 'USD Coin', version: '2' } }],
            ledger,
          }),
        }),
      ],
      controllers: [CoffeeController],
    })
    class CoffeeModule {}

    app = await NestFactory.create<NestFastifyApplication>(CoffeeModule, new FastifyAdapter(), { logger: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}/coffee`;
    const challenge = (await (await fetch(url, { method: 'POST' })).json()) as PaymentRequired;
    accepted = challenge.accepts[0]!;
  });
  afterAll(async () => {
    await app?.close();
    facilitator?.dispose();
    await chain?.stop();
  });

  const pay = (payment: unknown) => fetch(url, { method: 'POST', headers: { 'PAYMENT-SIGNATURE': encodeHeader(payment) } });
  const authorization = () => ({
    from: privateKeyToAccount(chain.payerPrivateKeys[0]!).address,
    to: chain.payTo,
    value: '1000',
    validAfter: '0',
    validBefore: String(Math.floor(Date.now() / 1000) + 300),
    nonce: `0x${randomBytes(32).toString('hex')}`,
  });

  it('refuses each with 402 and the field at fault, records nothing and moves no funds', async () => {
    const before = await chain.usdcBalanceOf(chain.payTo);
    const { network: _network, ...withoutNetwork } = accepted;
    const cases: Array<[string, unknown, string]> = [
      ['empty payload', { x402Version: 2, accepted, payload: {} }, 'payload.signature is missing'],
      ['bad authorization', { x402Version: 2, accepted, payload: { signature: `0x${'11'.repeat(65)}`, authorization: { ...authorization(), value: 'lots' } } }, 'payload.authorization.value must be a decimal integer below 2^256'],
      ['authorization without nonce', { x402Version: 2, accepted, payload: { signature: `0x${'11'.repeat(65)}`, authorization: { ...authorization(), nonce: undefined } } }, 'payload.authorization.nonce is missing'],
      ['accepted without network', { x402Version: 2, accepted: withoutNetwork, payload: {} }, 'accepted.network is missing'],
    ];
    for (const [name, payment, problem] of cases) {
      const response = await pay(payment);
      expect(response.status, name).toBe(402);
      expect(response.headers.get('retry-after'), name).toBeNull();
      const body = (await response.json()) as PaymentRequired;
      expect(body.error, name).toBe(`invalid_payment_header: PAYMENT-SIGNATURE ${problem}`);
      expect(body.accepts, name).toEqual([accepted]);
    }
    expect(ledger.records.size).toBe(0);
    expect(await chain.usdcBalanceOf(chain.payTo)).toBe(before);
  });

  it('still refuses a well-formed but wrongly signed payment with the facilitator reason', async () => {
    const response = await pay({ x402Version: 2, accepted, payload: { signature: `0x${'11'.repeat(65)}`, authorization: authorization() } });
    expect(response.status).toBe(402);
    expect(((await response.json()) as PaymentRequired).error).toMatch(/signature/i);
  });
});
