import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type LiveService, startLiveService } from '@fileshift/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callPaidTool, parseUsdc, SpendLimitError } from '../src/index.js';
import { anvilPayerAccount, devChainPayer, tinyPng, usdcBalanceOf } from './support/dev-chain.js';

const DETECTION_FEE = 2_000n;

/**
 * The SDK's MCP payer against the service's hosted MCP endpoint (/mcp, x402's MCP transport) with the official MCP
 * client: a paid tool is asked to pay, paid within the payer's limits on the dev chain, and settled once.
 */
describe('callPaidTool: paying a hosted MCP tool from the same payer (live service, dev chain)', () => {
  const account = anvilPayerAccount(8);
  let service: LiveService;
  let client: Client;
  let payerBalance: () => Promise<bigint>;
  const png = tinyPng();
  const detection = { filename: 'dot.png', size_bytes: png.length, header_first_200_bytes_base64: Buffer.from(png.subarray(0, 200)).toString('base64') };

  beforeAll(async () => {
    service = await startLiveService();
    const balanceOf = usdcBalanceOf(service.devChain);
    payerBalance = () => balanceOf(account.address);
    client = new Client({ name: 'sdk-mcp-payer-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${service.baseUrl}/mcp`)));
  });
  afterAll(async () => {
    await client?.close();
    await service?.stop();
  });

  it('pays a paid tool once and returns its result with the settlement; the same payment id again pays nothing more', async () => {
    const payer = devChainPayer(service.devChain, account);
    const before = await payerBalance();
    const detected = await callPaidTool(client, payer, { name: 'detect_file_type', arguments: detection });
    expect(detected.isError).toBeFalsy();
    expect(detected.structuredContent).toMatchObject({ detected: true, detected_format: { format: 'png' } });
    expect(detected.settlement).toMatchObject({ success: true, payer: account.address });
    expect(await payerBalance()).toBe(before - DETECTION_FEE);

    const again = await callPaidTool(client, payer, { name: 'detect_file_type', arguments: detection, paymentId: detected.paymentId });
    expect(again.settlement?.transaction).toBe(detected.settlement?.transaction);
    expect(await payerBalance()).toBe(before - DETECTION_FEE);
  });

  it('a free tool is answered as it is, nothing signed', async () => {
    const payer = devChainPayer(service.devChain, account);
    const formats = await callPaidTool(client, payer, { name: 'list_formats', arguments: {} });
    expect(formats.isError).toBeFalsy();
    expect(formats.settlement).toBeUndefined();
    expect(payer.spent()).toBe(0n);
  });

  it('a price over the payer’s cap is refused before anything is signed', async () => {
    const payer = devChainPayer(service.devChain, account, { maxPerPayment: parseUsdc('0.001') });
    const before = await payerBalance();
    await expect(callPaidTool(client, payer, { name: 'detect_file_type', arguments: detection })).rejects.toBeInstanceOf(SpendLimitError);
    expect(payer.spent()).toBe(0n);
    expect(await payerBalance()).toBe(before);
  });
});
