import 'reflect-metadata';
import { Controller, HttpCode, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DevChain, LocalFacilitatorClient } from '@fileshift/devchain';
import { x402Client } from '@x402/core/client';
import { x402ResourceServer } from '@x402/core/server';
import type { PaymentRequired } from '@x402/core/types';
import { toClientEvmSigner } from '@x402/evm';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import { ExactEvmScheme } from '@x402/evm/exact/server';
import { wrapFetchWithPayment } from '@x402/fetch';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Paid, Payment, type RoutePayment, X402Module } from '../src/index.js';
import { MemoryLedger } from './support/memory-ledger.js';

const SHOP = Symbol('shop gate');
const LIBRARY = Symbol('library gate');

@Controller()
class ShopController {
  @Post('shop/coffee')
  @HttpCode(200)
  @Paid({ name: 'buyCoffee', description: 'A coffee', gate: SHOP })
  async coffee(@Payment() payment: RoutePayment) {
    const paid = await payment.collect(1000);
    const receipt = await paid.settle();
    return { served: 'coffee', paidTo: receipt.payTo, tx: receipt.txHash };
  }

  @Post('library/book')
  @HttpCode(200)
  @Paid({ name: 'borrowBook', description: 'A book', gate: LIBRARY })
  async book(@Payment() payment: RoutePayment) {
    await (await payment.collect(3000)).settle();
    return { served: 'book' };
  }
}

describe('X402Module: several gates in one application (real settlement on the dev chain)', () => {
  let chain: DevChain;
  let facilitator: LocalFacilitatorClient;
  let app: NestFastifyApplication;
  let baseUrl: string;
  const ledgers = { shop: new MemoryLedger(), library: new MemoryLedger() };
  const libraryPayTo = privateKeyToAccount(generatePrivateKey()).address;

  beforeAll(async () => {
    chain = await DevChain.start();
    facilitator = new LocalFacilitatorClient(chain);
    const gate = (ledger: MemoryLedger, payTo: `0x${string}`) => ({
      resourceServer: new x402ResourceServer(facilitator).register(chain.network, new ExactEvmScheme()),
      accepts: [{ scheme: 'exact' as const, network: chain.network, asset: chain.usdcAddress, payTo, extra: { name: 'USD Coin', version: '2' } }],
      ledger,
    });

    @Module({
      imports: [
        X402Module.forRootAsync({ token: SHOP, useFactory: () => gate(ledgers.shop, chain.payTo) }),
        X402Module.forRootAsync({ token: LIBRARY, useFactory: () => gate(ledgers.library, libraryPayTo) }),
      ],
      controllers: [ShopController],
    })
    class ShopModule {}

    app = await NestFactory.create<NestFastifyApplication>(ShopModule, new FastifyAdapter(), { logger: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await app?.close();
    facilitator?.dispose();
    await chain?.stop();
  });

  it('each route challenges with its own gate: 402, the PAYMENT-REQUIRED header and the same challenge as the body', async () => {
    for (const [path, payTo, amount] of [
      ['shop/coffee', chain.payTo, '1000'],
      ['library/book', libraryPayTo, '3000'],
    ] as const) {
      const response = await fetch(`${baseUrl}/${path}`, { method: 'POST' });
      expect(response.status).toBe(402);
      const body = (await response.json()) as PaymentRequired;
      expect(body.accepts).toEqual([expect.objectContaining({ network: chain.network, payTo, amount })]);
      expect(JSON.parse(Buffer.from(response.headers.get('payment-required')!, 'base64').toString())).toEqual(body);
    }
  });

  it('the official client pays each route to its own payTo, and each gate records only its own payments', async () => {
    const client = registerExactEvmScheme(new x402Client(), { signer: toClientEvmSigner(privateKeyToAccount(chain.payerPrivateKeys[0]!), chain.publicClient as never) });
    client.setSpendControls({ allowedAssets: [{ network: chain.network, asset: chain.usdcAddress }] });
    const pay = wrapFetchWithPayment(fetch, client);
    const [shopBefore, libraryBefore] = await Promise.all([chain.usdcBalanceOf(chain.payTo), chain.usdcBalanceOf(libraryPayTo)]);

    const coffee = await pay(`${baseUrl}/shop/coffee`, { method: 'POST' });
    expect(coffee.status).toBe(200);
    expect(await coffee.json()).toMatchObject({ served: 'coffee', paidTo: chain.payTo, tx: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    const book = await pay(`${baseUrl}/library/book`, { method: 'POST' });
    expect(book.status).toBe(200);
    expect(book.headers.get('payment-response')).toBeTruthy();

    expect(await chain.usdcBalanceOf(chain.payTo)).toBe(shopBefore + 1000n);
    expect(await chain.usdcBalanceOf(libraryPayTo)).toBe(libraryBefore + 3000n);
    expect([...ledgers.shop.records.values()]).toEqual([expect.objectContaining({ payTo: chain.payTo, amountAtomic: '1000', status: 'settled' })]);
    expect([...ledgers.library.records.values()]).toEqual([expect.objectContaining({ payTo: libraryPayTo, amountAtomic: '3000', status: 'settled' })]);
  });
});
