/**
 * The hosted MCP endpoint (/mcp), driven by the official MCP SDK's client over Streamable HTTP against the real
 * service: paid tools challenged and paid on the dev chain through the x402 MCP transport (`_meta["x402/payment"]`),
 * receipts verified with jose against did.json, a file converted from a URL and from base64 content, its result
 * bought and downloaded. One payment core: a payment identifier used over HTTP answers the same call over MCP.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { x402Client } from '@x402/core/client';
import type { PaymentPayload, PaymentRequired } from '@x402/core/types';
import { appendPaymentIdentifierToExtensions, PAYMENT_IDENTIFIER } from '@x402/extensions/payment-identifier';
import sharp from 'sharp';
import { DataSource } from 'typeorm';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CONTENT_BYTES, MCP_BODY_LIMIT_BYTES } from '../src/mcp-endpoint/content-input.js';
import { didWebVerifier } from './support/did-web-verifier.js';
import { type PaidTestApp, startPaidTestApp } from './support/paid-test-app.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { jobEnded } from './support/x402-jobs.js';
import { decodeBase64Json, identifiedPayingFetch, payingClient, signedPayment } from './support/x402-payer.js';

const sha256 = (bytes: Buffer | Uint8Array) => createHash('sha256').update(bytes).digest('hex');

interface SettlementAnswer {
  success: boolean;
  transaction: string;
  network: string;
  payer?: string;
  amount?: string;
  extensions?: { 'offer-receipt'?: { info: { receipt: { format: string; signature: string } } } };
}

const TOOLS = ['convert_file', 'delete_job', 'detect_file_type', 'get_conversion_status', 'list_formats', 'purchase_result'];

describe('hosted MCP endpoint /mcp (official SDK client, x402 MCP transport, dev chain)', () => {
  let t: PaidTestApp;
  let files: Server;
  let filesUrl: string;
  let png: Buffer;
  let client: Client;
  let payer: x402Client;
  let verifier: Awaited<ReturnType<typeof didWebVerifier>>;
  const account = () => privateKeyToAccount(t.chain.payerPrivateKeys[3]!);
  const payTo = () => t.chain.usdcBalanceOf(t.chain.payTo);
  const settledCount = async () => Number((await t.app.get(DataSource).query(`SELECT count(*)::int AS n FROM payment_records WHERE status = 'settled'`))[0].n);

  const call = (name: string, args: Record<string, unknown>, payment?: PaymentPayload) =>
    client.callTool({ name, arguments: args, ...(payment ? { _meta: { 'x402/payment': payment } } : {}) }) as Promise<CallToolResult>;
  const challengeOf = (result: CallToolResult) => {
    expect(result.isError, JSON.stringify(result)).toBe(true);
    return result.structuredContent as unknown as PaymentRequired;
  };
  /** A fresh sample for each detection: no two tests share a payment-identifier fingerprint by accident. */
  const detectArgs = () => {
    const bytes = Buffer.from(`%PDF-1.7\n${randomUUID()}\n`);
    return { filename: 'doc.bin', size_bytes: bytes.length, header_first_200_bytes_base64: bytes.toString('base64') };
  };
  /** The challenge of an unpaid call, then the call paid with what the official x402 client signs for it. */
  const paidCall = async (name: string, args: Record<string, unknown>, signer: x402Client = payer) => {
    const challenge = challengeOf(await call(name, args));
    const payment = await signer.createPaymentPayload(challenge);
    return { challenge, payment, result: await call(name, args, payment) };
  };
  const settlementOf = (result: CallToolResult) => {
    expect(result.isError, JSON.stringify(result)).toBeFalsy();
    return result._meta?.['x402/payment-response'] as SettlementAnswer;
  };

  beforeAll(async () => {
    png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#aa3355' } }).png().toBuffer();
    files = createServer((request, response) => {
      if (request.url === '/picture.png') return void response.writeHead(200, { 'content-type': 'image/png' }).end(png);
      response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
    filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
    t = await startPaidTestApp({
      payerIndex: 3,
      env: { OUTBOUND_ALLOW_HOSTS: '127.0.0.1/32', OUTBOUND_ALLOW_PORTS: String((files.address() as AddressInfo).port) },
    });
    payer = payingClient(t.chain, account());
    verifier = await didWebVerifier(t.baseUrl);
    client = new Client({ name: 'fileshift-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${t.baseUrl}/mcp`)));
  });
  afterAll(async () => {
    await client?.close();
    await t?.close();
    await new Promise((resolve) => files?.close(resolve));
  });

  it('lists every tool with its input and output schemas, paid ones saying so', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(TOOLS);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.annotations).toBeDefined();
    }
    const detect = tools.find((tool) => tool.name === 'detect_file_type')!;
    expect(Object.keys(detect.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['filename', 'size_bytes', 'header_first_200_bytes_base64', 'source_url']));
    expect(detect.description).toMatch(/x402\/payment/);
  });

  it('answers an unpaid paid tool with the x402 challenge: PaymentRequired in structuredContent and in an x402/error text', async () => {
    const before = await settledCount();
    const result = await call('detect_file_type', detectArgs());
    const challenge = challengeOf(result);
    expect(challenge).toMatchObject({ x402Version: 2, resource: { url: `${t.baseUrl}/api/x402/v1/detect-file-type` } });
    expect(challenge.accepts).toEqual(expect.arrayContaining([expect.objectContaining({ scheme: 'exact', network: t.chain.network, amount: String(t.config.prices.detectAtomic) })]));
    const text = JSON.parse((result.content[0] as { text: string }).text) as { 'x402/error': { code: number; data: PaymentRequired } };
    expect(text['x402/error'].code).toBe(402);
    expect(text['x402/error'].data).toEqual(challenge);
    // The same challenge an HTTP client is shown: one payment core.
    const http = await fetch(`${t.baseUrl}/api/x402/v1/detect-file-type`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(detectArgs()) });
    expect(decodeBase64Json<PaymentRequired>(http.headers.get('payment-required')).accepts).toEqual(challenge.accepts);
    expect(await settledCount()).toBe(before);
  });

  it('a paid detection settles on the dev chain and answers the receipt in _meta, verified against did.json', async () => {
    const before = await payTo();
    const { result } = await paidCall('detect_file_type', detectArgs());
    const settlement = settlementOf(result);
    expect(settlement).toMatchObject({ success: true, network: t.chain.network, payer: account().address, transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect(await payTo()).toBe(before + BigInt(t.config.prices.detectAtomic));
    expect(result.structuredContent).toMatchObject({ detected: true, detected_format: { format: 'pdf' } });
    const receipt = await verifier.verify<Record<string, unknown>>(settlement.extensions!['offer-receipt']!.info.receipt.signature);
    expect(receipt).toMatchObject({ network: t.chain.network, payer: account().address, transaction: settlement.transaction, resourceUrl: `${t.baseUrl}/api/x402/v1/detect-file-type` });
  });

  it('the same payment sent twice settles once: with an identifier the repeat answers the first receipt, without one it is a replay', async () => {
    const identified = identifiedClient(`mcp-twice-${randomUUID()}`);
    const args = detectArgs();
    const before = await payTo();
    const first = await paidCall('detect_file_type', args, identified);
    const again = await call('detect_file_type', args, first.payment);
    expect(settlementOf(again).transaction).toBe(settlementOf(first.result).transaction);
    expect(await payTo()).toBe(before + BigInt(t.config.prices.detectAtomic));

    const plain = await paidCall('detect_file_type', detectArgs());
    settlementOf(plain.result);
    const settled = await settledCount();
    const replay = challengeOf(await call('detect_file_type', detectArgs(), plain.payment));
    expect(replay.error).toMatch(/payment_already_used/);
    expect(await settledCount()).toBe(settled);
  });

  it('a payment identifier used over HTTP answers the same request over MCP from the first payment: settled once', async () => {
    const id = `http-then-mcp-${randomUUID()}`;
    const args = detectArgs();
    const before = await payTo();
    const http = await identifiedPayingFetch(t.chain, account(), id)(`${t.baseUrl}/api/x402/v1/detect-file-type`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(args),
    });
    expect(http.status, await http.clone().text()).toBe(200);
    const httpSettlement = decodeBase64Json<SettlementAnswer>(http.headers.get('payment-response'));

    const mcp = await paidCall('detect_file_type', args, identifiedClient(id));
    expect(settlementOf(mcp.result)).toMatchObject({ success: true, transaction: httpSettlement.transaction });
    expect(mcp.result.structuredContent).toEqual(await http.json());
    expect(await payTo()).toBe(before + BigInt(t.config.prices.detectAtomic));
    const [{ n }] = await t.app.get(DataSource).query(`SELECT count(*)::int AS n FROM payment_records WHERE payment_id LIKE $1`, [`%/${id}`]);
    expect(n).toBe(1);
  });

  it('refuses underpaid, replayed and wrong-network payments with the requirements, before any work, settling nothing', async () => {
    const args = detectArgs();
    const challenge = challengeOf(await call('detect_file_type', args));
    const accepted = challenge.accepts.find((requirement) => requirement.network === t.chain.network)!;
    const spent = await paidCall('detect_file_type', detectArgs());
    settlementOf(spent.result);
    const before = await payTo();
    const settled = await settledCount();
    const refusals: Array<[string, PaymentPayload]> = [
      ['underpaid', await signedPayment(account(), accepted, { value: String(BigInt(accepted.amount) - 1n) })],
      ['replayed', spent.payment],
      ['wrong network', await signedPayment(account(), { ...accepted, network: 'eip155:8453' })],
      ['malformed', { x402Version: 2, accepted, payload: { nonsense: true } } as unknown as PaymentPayload],
    ];
    for (const [what, payment] of refusals) {
      const refused = challengeOf(await call('detect_file_type', args, payment));
      expect(refused.accepts, what).toEqual(challenge.accepts);
      expect(refused.error, what).toEqual(expect.any(String));
      expect(refused).not.toHaveProperty('detected');
    }
    expect(await payTo()).toBe(before);
    expect(await settledCount()).toBe(settled);
  });

  it('refuses what cannot succeed before any challenge, with the HTTP API\'s error: an invalid request, an unknown job', async () => {
    const invalid = await call('detect_file_type', { filename: 'x', size_bytes: 1 });
    expect(invalid.isError).toBe(true);
    expect(invalid.structuredContent).toMatchObject({ error: { status: 422, code: 'validation_error' } });
    const unknown = await call('purchase_result', { job_id: 'not a job' });
    expect(unknown.structuredContent).toMatchObject({ error: { status: 400 } });
  });

  it('converts a file from a URL, waits for it, buys the result: the download\'s bytes match the signed delivery record', async () => {
    const before = await payTo();
    const started = await paidCall('convert_file', { source_url: `${filesUrl}/picture.png`, target_format: 'webp' });
    settlementOf(started.result);
    const { job_id: jobId } = started.result.structuredContent as { job_id: string };

    const status = await call('get_conversion_status', { job_id: jobId, wait_seconds: 30 });
    expect(status.structuredContent, JSON.stringify(status)).toMatchObject({ job_id: jobId, status: 'done' });
    const notTooLong = await call('get_conversion_status', { job_id: jobId, wait_seconds: 31 });
    expect(notTooLong.structuredContent).toMatchObject({ error: { status: 422 } });

    const bought = await paidCall('purchase_result', { job_id: jobId });
    const settlement = settlementOf(bought.result);
    const sold = bought.result.structuredContent as { download_url: string; delivery_record: string; delivery_record_fields: { output: { sha256: string } } };
    const link = bought.result.content.find((item) => item.type === 'resource_link') as { uri: string; mimeType: string };
    expect(link).toMatchObject({ uri: sold.download_url, mimeType: 'image/webp' });
    const record = await verifier.verify<{ jobId: string; output: { sha256: string }; payment: { transaction: string } }>(sold.delivery_record);
    expect(record).toMatchObject({ jobId, payment: { transaction: settlement.transaction } });
    expect(sold.delivery_record_fields.output.sha256).toBe(record.output.sha256);
    const download = Buffer.from(await (await fetch(link.uri)).arrayBuffer());
    expect(sha256(download)).toBe(record.output.sha256);
    expect((await sharp(download).metadata()).format).toBe('webp');
    expect(await payTo()).toBe(before + BigInt(t.config.prices.jobAtomic) + BigInt(bought.challenge.accepts[0]!.amount));

    // Bought: asked again, the URL comes back free.
    const again = await call('purchase_result', { job_id: jobId });
    expect(again.isError).toBeFalsy();
    expect(await payTo()).toBe(before + BigInt(t.config.prices.jobAtomic) + BigInt(bought.challenge.accepts[0]!.amount));
  });

  it('the HTTP operations the tools were paid as still sell over HTTP: one route server, whichever transport came first', async () => {
    const accepted = await t.pay(`${t.baseUrl}/api/x402/v1/convert-file`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ source_url: `${filesUrl}/picture.png`, target_format: 'jpg' }),
    });
    const done = await jobEnded(accepted);
    expect(done.status).toBe('done');
    const result = await t.pay(done.result_url!);
    expect(result.status, await result.clone().text()).toBe(200);
    expect(decodeBase64Json<SettlementAnswer>(result.headers.get('payment-response'))).toMatchObject({ success: true });
  });

  it('converts base64 content, then deletes the job', async () => {
    const started = await paidCall('convert_file', { content_base64: png.toString('base64'), filename: 'picture.png', target_format: 'jpg' });
    settlementOf(started.result);
    const { job_id: jobId } = started.result.structuredContent as { job_id: string };
    const status = await call('get_conversion_status', { job_id: jobId, wait_seconds: 30 });
    expect(status.structuredContent).toMatchObject({ status: 'done', detected_input_format: 'png', target_format: 'jpg' });

    const deleted = await call('delete_job', { job_id: jobId });
    expect(deleted.structuredContent).toEqual({ success: true, message: expect.any(String) });
    const gone = await call('get_conversion_status', { job_id: jobId });
    expect(gone.structuredContent).toMatchObject({ error: { status: 410, code: 'gone' } });
  });

  it('refuses content that is not base64 and content that cannot be converted, unpaid, before any challenge', async () => {
    const notBase64 = await call('convert_file', { content_base64: 'not base64!', filename: 'x.png', target_format: 'jpg' });
    expect(notBase64.structuredContent).toMatchObject({ error: { status: 422, details: { fields: [{ field: 'content_base64' }] } } });
    const text = await call('convert_file', { content_base64: Buffer.from('just some words').toString('base64'), filename: 'x.txt', target_format: 'mp3' });
    expect(text.structuredContent).toMatchObject({ error: { status: 422 } });
  });

  it('lists formats, narrowed to one source format', async () => {
    const all = await call('list_formats', {});
    const png = await call('list_formats', { source_format: 'png' });
    const listed = png.structuredContent as { formats: Array<{ id: string; targets: Array<{ format: string }> }>; pairs: number };
    expect(listed.formats.map((format) => format.id)).toEqual(['png']);
    expect(listed.formats[0]!.targets.map((target) => target.format)).toEqual(expect.arrayContaining(['jpg', 'webp']));
    expect((all.structuredContent as { pairs: number }).pairs).toBeGreaterThan(listed.pairs);
  });

  it('needs no session: a bare JSON-RPC POST pays nothing and is answered the challenge; GET is refused', async () => {
    const response = await fetch(`${t.baseUrl}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'detect_file_type', arguments: detectArgs() } }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toBeNull();
    const answer = (await response.json()) as { result: CallToolResult };
    expect(answer.result.isError).toBe(true);
    expect(answer.result.structuredContent).toMatchObject({ x402Version: 2 });
    expect((await fetch(`${t.baseUrl}/mcp`, { headers: { accept: 'text/event-stream' } })).status).toBe(405);
  });

  it('takes base64 content past the JSON body limit, up to its stated limit; a larger body is refused before it is read', async () => {
    // 2 MiB of content: twice the API's JSON body limit, within the endpoint's. Zero bytes show no format: refused, unpaid.
    const zeros = await call('convert_file', { content_base64: Buffer.alloc(2 * 1024 * 1024).toString('base64'), filename: 'zeros.bin', target_format: 'jpg' });
    expect(zeros.structuredContent).toMatchObject({ error: { status: 422 } });
    const over = await call('convert_file', { content_base64: Buffer.alloc(MAX_CONTENT_BYTES + 3).toString('base64'), filename: 'big.bin', target_format: 'jpg' });
    expect(over.structuredContent).toMatchObject({ error: { status: 413, code: 'payload_too_large' } });
    const tooLarge = await fetch(`${t.baseUrl}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'convert_file', arguments: { content_base64: 'A'.repeat(MCP_BODY_LIMIT_BYTES) } } }),
    });
    expect(tooLarge.status).toBe(413);
  });

  /** The official x402 client whose payments carry the identifier `id`. */
  function identifiedClient(id: string): x402Client {
    return payingClient(t.chain, account()).registerExtension({
      key: PAYMENT_IDENTIFIER,
      enrichPaymentPayload: async (payload) => ({ ...payload, extensions: appendPaymentIdentifierToExtensions(structuredClone(payload.extensions ?? {}), id) }),
    });
  }
});

describe('/mcp under the API\'s rate limit and CORS rules', () => {
  let t: TestApp;
  const post = (headers: Record<string, string> = {}) =>
    fetch(`${t.baseUrl}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18', ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
  beforeAll(async () => {
    t = await startTestApp({ ROLE: 'api', X402_RATE_LIMIT_PER_MINUTE: '4', CORS_ALLOWED_ORIGINS: 'https://app.example' });
    // Every request of this block inside one fixed window of the limit.
    const toNextMinute = 60_000 - (Date.now() % 60_000);
    if (toNextMinute < 10_000) await new Promise((resolve) => setTimeout(resolve, toNextMinute + 100));
  });
  afterAll(async () => t?.close());

  it('refuses a page from an origin the CORS rules do not allow (DNS rebinding), and serves an allowed one', async () => {
    const refused = await post({ origin: 'http://evil.example' });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ jsonrpc: '2.0', error: { message: expect.stringContaining('evil.example') } });
    const allowed = await post({ origin: 'https://app.example' });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example');
  });

  it('counts each POST as a request of the x402 API: past the limit, 429 with Retry-After, for the HTTP operations too', async () => {
    // Two of the four were the CORS test's.
    const statuses = [(await post()).status, (await post()).status];
    const limited = await post();
    expect([...statuses, limited.status]).toEqual([200, 200, 429]);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await fetch(`${t.baseUrl}/api/x402/v1/formats`)).status).toBe(429);
  });
});
