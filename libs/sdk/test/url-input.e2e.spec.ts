import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type LiveService, startLiveService, startWebhookReceiver, type WebhookReceiver } from '@fileshift/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createClient } from '../src/index.js';
import { anvilPayerAccount, devChainPayer, recordingFetch, tinyPng, usdcBalanceOf } from './support/dev-chain.js';

const isWebp = (bytes: Uint8Array) => Buffer.from(bytes.subarray(0, 4)).toString() === 'RIFF' && Buffer.from(bytes.subarray(8, 12)).toString() === 'WEBP';
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const JOB_FEE = 2_000n;
const RESULT_PRICE = 20_000n;

function listening(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

/** A file server on loopback, which the service reaches only through its allow-list; it notes who asked for what. */
async function startFileServer() {
  const requests: Array<{ path: string; userAgent?: string }> = [];
  const server = createServer((request, response) => {
    requests.push({ path: request.url ?? '', userAgent: request.headers['user-agent'] });
    if (request.url === '/files/dot.png') return response.writeHead(200, { 'content-type': 'image/png' }).end(tinyPng());
    if (request.url === '/to-private') return response.writeHead(302, { location: 'http://10.1.2.3/dot.png' }).end();
    return response.writeHead(404).end();
  });
  const port = await listening(server);
  return { server, port, base: `http://127.0.0.1:${port}`, requests };
}

describe('files by URL and webhooks: the service fetches the file and announces the end (live service, dev chain)', () => {
  const account = anvilPayerAccount(7);
  let service: LiveService;
  let files: Awaited<ReturnType<typeof startFileServer>>;
  let receiver: WebhookReceiver;
  let payerBalance: () => Promise<bigint>;

  beforeAll(async () => {
    files = await startFileServer();
    receiver = await startWebhookReceiver();
    // Loopback is private: the service's outbound guard reaches these two servers only because they are allow-listed.
    service = await startLiveService({ OUTBOUND_ALLOW_HOSTS: '127.0.0.1/32', OUTBOUND_ALLOW_PORTS: `${files.port},${receiver.port}` });
    const balanceOf = usdcBalanceOf(service.devChain);
    payerBalance = () => balanceOf(account.address);
  });
  afterAll(async () => {
    await service?.stop();
    files?.server.close();
    await receiver?.close();
  });

  const paying = (fetch?: typeof globalThis.fetch) => createClient({ baseUrl: service.baseUrl, payer: devChainPayer(service.devChain, account), fetch });
  const fetchesOf = (path: string) => files.requests.filter((request) => request.path === path);

  it('detectFile({ url }): the service fetches the file (its own user agent), detects it, and is paid once', async () => {
    const recorder = recordingFetch();
    const before = await payerBalance();
    const fetchedBefore = fetchesOf('/files/dot.png').length;
    const detected = await paying(recorder.fetch).detectFile({ url: `${files.base}/files/dot.png` });
    expect(detected).toMatchObject({ detected: true, input_filename: 'dot.png', detected_format: { format: 'png' } });
    expect(detected.receipt).toMatchObject({ payer: account.address, amount: JOB_FEE.toString() });
    expect(recorder.requests.filter((request) => request.signed)).toHaveLength(1);
    expect(recorder.requests.find((request) => request.signed)?.json).toEqual({ source_url: `${files.base}/files/dot.png` });
    expect(fetchesOf('/files/dot.png').slice(fetchedBefore)).toEqual([{ path: '/files/dot.png', userAgent: 'fileshift' }]);
    expect(await payerBalance()).toBe(before - JOB_FEE);
  });

  it('convertFile({ input: { url }, webhookUrl }): the right bytes, a verified delivery record, and a signed event that verifyWebhook accepts', async () => {
    const client = paying();
    const before = await payerBalance();
    const converted = await client.convertFile({ input: { url: `${files.base}/files/dot.png` }, targetFormat: 'webp', webhookUrl: receiver.url('/hooks/fileshift') });
    expect(isWebp(converted.data)).toBe(true);
    expect(converted.filename).toBe('dot.webp');
    // convertFile has checked the record's signature and that the download is the file it names; it names the fetched file as the input.
    expect(converted.deliveryRecord).toMatchObject({
      jobId: converted.jobId,
      input: { format: 'png', sha256: sha256(tinyPng()), sizeBytes: tinyPng().length },
      output: { format: 'webp', sha256: sha256(converted.data), sizeBytes: converted.data.length },
    });
    expect(await payerBalance()).toBe(before - JOB_FEE - RESULT_PRICE);

    await receiver.first;
    const [delivery] = receiver.received;
    const event = await client.verifyWebhook(delivery!, { jobId: converted.jobId });
    expect(event).toMatchObject({ id: delivery!.headers['webhook-id'], type: 'conversion.done', data: { job_id: converted.jobId, status: 'done' } });
    // The same delivery, altered, is refused.
    await expect(client.verifyWebhook({ ...delivery!, body: delivery!.body.replace('conversion.done', 'conversion.failed') })).rejects.toThrow(/does not verify/);
    await expect(client.verifyWebhook(delivery!, { jobId: 'job_another' })).rejects.toThrow(/not of job job_another/);

    // The job's status tells how the delivery went, once the service has noted the receiver's answer.
    let status = await client.getJob(converted.jobId);
    while (status.webhook?.state !== 'delivered' && status.webhook?.state !== 'failed') {
      await new Promise((resolve) => setTimeout(resolve, 200));
      status = await client.getJob(converted.jobId);
    }
    expect(status.webhook).toMatchObject({ url: receiver.url('/hooks/fileshift'), state: 'delivered', attempts: 1, last_status_code: 204 });
  });

  it('a URL the guard refuses is an ApiError and nothing is paid: a private address at once, a redirect to one after the fetch began', async () => {
    const before = await payerBalance();
    const literal = await paying()
      .detectFile({ url: 'http://10.1.2.3/dot.png' })
      .catch((e: unknown) => e);
    expect(literal).toBeInstanceOf(ApiError);
    expect(literal).toMatchObject({ status: 422, message: expect.stringMatching(/source_url/) });

    const redirected = await paying()
      .convertFile({ input: { url: `${files.base}/to-private` }, targetFormat: 'webp' })
      .catch((e: unknown) => e);
    expect(redirected).toBeInstanceOf(ApiError);
    expect(redirected).toMatchObject({ code: 'source_url_refused' });
    expect(fetchesOf('/to-private')).toHaveLength(1);
    expect(await payerBalance()).toBe(before);
  });

  it('the key API uploads from a URL too', async () => {
    const client = createClient({ baseUrl: service.baseUrl, apiKey: service.createApiKey('sdk-url') });
    const filename = await client.upload({ url: `${files.base}/files/dot.png`, filename: 'named.png' });
    expect(filename).toMatch(/\.png$/);
    const converted = await client.convert({ filename, extIn: 'png', extOut: 'webp' });
    expect(isWebp(new Uint8Array(await (await fetch(converted.urls[0]!)).arrayBuffer()))).toBe(true);
  });
});
