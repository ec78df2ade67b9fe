import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DevChain } from '@fileshift/devchain';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type ServiceProcess, spawnService, waitFor } from './support/service-process.js';
import { createTestEnvironment } from './support/test-app.js';
import { decodeBase64Json, identifiedPayingFetch, payingFetch } from './support/x402-payer.js';

const PNG_HEADER = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex').toString('base64');
const detectBody = JSON.stringify({ filename: 'picture.png', size_bytes: 4096, header_first_200_bytes_base64: PNG_HEADER });
const DETECT_PRICE = 2000n;

interface ApiProcess {
  service: ServiceProcess;
  baseUrl: string;
  dataDir: string;
}

/** Scale-out in dev mode: two API processes (the built service) settle on one anvil through DEVCHAIN_RPC_URL. */
describe('two API processes in dev mode sharing one dev chain', () => {
  let chain: DevChain;
  let environment: Awaited<ReturnType<typeof createTestEnvironment>>;
  const apis: ApiProcess[] = [];

  async function startApi(): Promise<ApiProcess> {
    const port = await freePort();
    // Shared: the database and QUEUE_PREFIX of this test run (a deployment). Each process: its own DATA_DIR.
    const dataDir = mkdtempSync(join(tmpdir(), 'fileshift-shared-chain-'));
    const service = spawnService({
      ...environment.variables,
      ROLE: 'api',
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      PAYMENTS_MODE: 'dev',
      DEVCHAIN_RPC_URL: chain.rpcUrl,
    });
    const api = { service, baseUrl: `http://127.0.0.1:${port}`, dataDir };
    apis.push(api);
    return api;
  }

  beforeAll(async () => {
    chain = await DevChain.start();
    environment = await createTestEnvironment();
    const started = await Promise.all([startApi(), startApi()]);
    for (const api of started) {
      await waitFor(async () => (await fetch(`${api.baseUrl}/api/x402/v1/health/ready`)).status === 200, 60_000, 'an api process').catch((error: Error) => {
        throw new Error(`${error.message}; its output:\n${api.service.output()}`);
      });
    }
  });

  afterAll(async () => {
    await Promise.all(apis.map((api) => api.service.stop()));
    for (const api of apis) rmSync(api.dataDir, { recursive: true, force: true });
    await environment?.drop();
    await chain?.stop();
  });

  it('both attach to the running chain and reuse its token; each says its payment mode at start', async () => {
    for (const api of apis) {
      const discovery = (await (await fetch(`${api.baseUrl}/.well-known/x402.json`)).json()) as { paymentsMode: string; devChain: { rpcUrl: string; usdc: string; payTo: string } };
      expect(discovery.paymentsMode).toBe('dev');
      expect(discovery.devChain).toMatchObject({ rpcUrl: chain.rpcUrl, usdc: chain.usdcAddress, payTo: chain.payTo });
      expect(api.service.output()).toContain(`payments: dev — test USDC on the shared dev chain at ${chain.rpcUrl}`);
    }
  });

  it('a detection paid on each API at the same time: both settle, payTo gains twice the detection price', async () => {
    const before = await chain.usdcBalanceOf(chain.payTo);
    const responses = await Promise.all(
      apis.map((api, index) =>
        payingFetch(chain, privateKeyToAccount(chain.payerPrivateKeys[index]!))(`${api.baseUrl}/api/x402/v1/detect-file-type`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: detectBody,
        }),
      ),
    );
    const transactions = new Set<string>();
    for (const response of responses) {
      expect(response.status).toBe(200);
      expect(((await response.json()) as { detected_format: { format: string } }).detected_format.format).toBe('png');
      const receipt = decodeBase64Json<{ success: boolean; transaction: string }>(response.headers.get('payment-response'));
      expect(receipt.success).toBe(true);
      transactions.add(receipt.transaction);
    }
    expect(transactions.size).toBe(2);
    expect(await chain.usdcBalanceOf(chain.payTo)).toBe(before + 2n * DETECT_PRICE);
  });

  it('a detection repeated on the other API with its payment identifier: the first answer and receipt, settled once; another request with it is 409', async () => {
    const before = await chain.usdcBalanceOf(chain.payTo);
    const id = `pay_${crypto.randomUUID().replaceAll('-', '')}`;
    const account = privateKeyToAccount(chain.payerPrivateKeys[2]!);
    const detect = (api: ApiProcess, body = detectBody) =>
      identifiedPayingFetch(chain, account, id)(`${api.baseUrl}/api/x402/v1/detect-file-type`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const first = await detect(apis[0]!);
    expect(first.status).toBe(200);
    const again = await detect(apis[1]!);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(await first.json());
    const receipt = decodeBase64Json<{ transaction: string }>(first.headers.get('payment-response'));
    expect(decodeBase64Json<{ transaction: string; amount: string }>(again.headers.get('payment-response'))).toMatchObject({ transaction: receipt.transaction, amount: '2000' });
    expect(await chain.usdcBalanceOf(chain.payTo)).toBe(before + DETECT_PRICE);

    const other = await detect(apis[1]!, detectBody.replace('picture.png', 'other.png'));
    expect(other.status).toBe(409);
    expect(await other.json()).toMatchObject({ error: { code: 'conflict', message: expect.stringMatching(/payment identifier was used for a different request/) } });
    expect(await chain.usdcBalanceOf(chain.payTo)).toBe(before + DETECT_PRICE);
  });
});
