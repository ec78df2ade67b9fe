import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { address, createKeyPairSignerFromBytes } from '@solana/kit';
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { ApiError, ConversionInterruptedError, createClient, createPayer, JobFailedError, newPaymentIdentifier, PaymentRequiredError, VerificationError } from '../src/index.js';
import { type LiveService, startLiveService } from '@fileshift/testing';
import { anvilPayerAccount, devChainPayer, recordingFetch, tinyPng, toneWav, usdcBalanceOf } from './support/dev-chain.js';

const isWebp = (bytes: Uint8Array) => Buffer.from(bytes.subarray(0, 4)).toString() === 'RIFF' && Buffer.from(bytes.subarray(8, 12)).toString() === 'WEBP';
const isMp3 = (bytes: Uint8Array) => Buffer.from(bytes.subarray(0, 3)).toString() === 'ID3' || (bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0);
const JOB_FEE = 2_000n;
const RESULT_PRICE = 20_000n;

describe('x402 API: detection and whole conversions on the dev chain (real settlement)', () => {
  const account = anvilPayerAccount(4);
  const png = { data: tinyPng(), filename: 'dot.png' };
  let service: LiveService;
  let balanceOf: ReturnType<typeof usdcBalanceOf>;
  const payerBalance = () => balanceOf(account.address);

  beforeAll(async () => {
    service = await startLiveService();
    balanceOf = usdcBalanceOf(service.devChain);
  });
  afterAll(async () => service?.stop());

  const paying = (fetch?: typeof globalThis.fetch) => createClient({ baseUrl: service.baseUrl, payer: devChainPayer(service.devChain, account), fetch });

  it('detects a file, paying 0.002 USDC on chain', async () => {
    const [payTo, payer] = [await balanceOf(service.devChain.payTo), await payerBalance()];
    const detected = await paying().detectFile(png);
    expect(detected.detected_format?.format).toBe('png');
    expect(detected.receipt).toMatchObject({ network: service.devChain.network, transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/), payer: account.address, amount: JOB_FEE.toString() });
    expect(await balanceOf(service.devChain.payTo)).toBe(payTo + JOB_FEE);
    expect(await payerBalance()).toBe(payer - JOB_FEE);
  });

  it('a detection whose paid answer is lost, repeated with its paymentId: answered with the first settlement, charged once', async () => {
    const recorder = recordingFetch();
    let lost = false;
    const losingFirstPaid: typeof globalThis.fetch = async (input, init) => {
      const response = await recorder.fetch(input, init);
      if (!lost && recorder.requests.at(-1)!.signed) {
        lost = true;
        throw new TypeError('fetch failed'); // the service settled; the client never hears of it
      }
      return response;
    };
    const client = paying(losingFirstPaid);
    const before = await payerBalance();
    const paymentId = newPaymentIdentifier();
    await expect(client.detectFile(png, { paymentId })).rejects.toThrow();
    const again = await client.detectFile(png, { paymentId });
    expect(again.detected_format?.format).toBe('png');
    expect(again.receipt).toMatchObject({ transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/), amount: JOB_FEE.toString() });
    expect(recorder.requests.filter((request) => request.signed).map((request) => request.paymentId)).toEqual([paymentId, paymentId]);
    expect(recorder.requests.some((request) => request.identifierHeader)).toBe(false);
    expect(await payerBalance()).toBe(before - JOB_FEE);
  });

  it('every paid step of convertFile carries a payment identifier of its own', async () => {
    const recorder = recordingFetch();
    await paying(recorder.fetch).convertFile({ input: png, targetFormat: 'webp' });
    const ids = recorder.requests.filter((request) => request.signed).map((request) => request.paymentId);
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(2);
    for (const id of ids) expect(id).toMatch(/^pay_[0-9a-f]{32}$/);
  });

  it('without a payer, a paid call is a PaymentRequiredError carrying the decoded challenge', async () => {
    const error = await createClient({ baseUrl: service.baseUrl }).detectFile(png).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentRequiredError);
    expect((error as PaymentRequiredError).challenge.accepts[0]).toMatchObject({ amount: '2000', asset: service.devChain.usdc, network: service.devChain.network });
  });

  it('convertFile turns a PNG into webp: job fee, polling, result purchase, download', async () => {
    const before = await payerBalance();
    const seen: string[] = [];
    const converted = await paying().convertFile({ input: png, targetFormat: 'webp', onProgress: (status) => seen.push(status.status) });
    expect(isWebp(converted.data)).toBe(true);
    expect(converted).toMatchObject({ filename: 'dot.webp', mimeType: 'image/webp', sizeBytes: converted.data.length, jobId: expect.stringMatching(/^job_/) });
    expect(converted.receipts.map((receipt) => receipt.transaction)).toEqual([expect.stringMatching(/^0x[0-9a-f]{64}$/), expect.stringMatching(/^0x[0-9a-f]{64}$/)]);
    // Amounts in dev mode too, where the facilitator's own answer has none.
    expect(converted.receipts.map((receipt) => receipt.amount)).toEqual([JOB_FEE.toString(), RESULT_PRICE.toString()]);
    expect(converted.idempotencyKey).toMatch(/^fsdk-/);
    // The service's own record of the result purchase, beside the settlement receipts.
    expect(converted.resultPayment).toMatchObject({ protocol: 'x402', network: service.devChain.network, amount: { atomic_units: RESULT_PRICE.toString() }, tx_hash: converted.receipts[1]!.transaction });
    expect(seen.at(-1)).toBe('done');
    expect(await payerBalance()).toBe(before - JOB_FEE - RESULT_PRICE);
  });

  describe('what the service signs is verified against its /.well-known/did.json', () => {
    /** A fetch that hands the client `change`d answers of the requests `matches` picks. */
    const altering = (matches: (url: string) => boolean, change: (response: Response) => Promise<Response>): typeof globalThis.fetch => async (input, init) => {
      const response = await globalThis.fetch(input, init);
      const url = input instanceof Request ? input.url : String(input);
      return matches(url) && response.ok ? change(response) : response;
    };
    /** A compact JWS with one payload field changed and the signature kept. */
    const forged = (jws: string, change: Record<string, unknown>) => {
      const [header, payload, signature] = jws.split('.');
      const altered = { ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), ...change };
      return `${header}.${Buffer.from(JSON.stringify(altered)).toString('base64url')}.${signature}`;
    };

    it('convertFile returns the signed receipts and the delivery record, and the file it downloaded is the one the record names', async () => {
      const converted = await paying().convertFile({ input: png, targetFormat: 'webp' });
      for (const receipt of converted.receipts) {
        expect(receipt.signed).toMatchObject({ network: receipt.network, transaction: receipt.transaction, payer: account.address, kid: expect.stringMatching(/^did:web:127\.0\.0\.1%3A\d+#/) });
      }
      expect(converted.deliveryRecord).toMatchObject({
        jobId: converted.jobId,
        input: { format: 'png', sha256: createHash('sha256').update(png.data).digest('hex'), sizeBytes: png.data.length },
        output: { format: 'webp', filename: 'dot.webp', sha256: createHash('sha256').update(converted.data).digest('hex'), sizeBytes: converted.data.length },
        plan: [{ engine: 'sharp', version: expect.any(String), from: 'png', to: 'webp' }],
        payment: { transaction: converted.receipts[1]!.transaction, amount: RESULT_PRICE.toString() },
        jws: expect.any(String),
      });
    });

    it('a delivery record altered on its way, or a download that is not the recorded file, is a VerificationError carrying the job', async () => {
      const isResult = (url: string) => /\/convert-file\/[^/]+\/result$/.test(url);
      const tampered = altering(isResult, async (response) => {
        const body = (await response.json()) as { delivery_record: string };
        return Response.json({ ...body, delivery_record: forged(body.delivery_record, { output: { sha256: '0'.repeat(64) } }) }, { headers: response.headers });
      });
      const error = await paying(tampered).convertFile({ input: png, targetFormat: 'webp' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(VerificationError);
      expect(error).toMatchObject({ message: expect.stringMatching(/does not verify/), jobId: expect.stringMatching(/^job_/) });

      const swapped = altering((url) => url.includes('/api/x402/v1/download/'), async (response) => new Response(new Uint8Array([...new Uint8Array(await response.arrayBuffer()), 0]), { headers: response.headers }));
      const mismatch = /^The downloaded file is not the one the delivery record of job \S+ names/;
      await expect(paying(swapped).convertFile({ input: png, targetFormat: 'webp' })).rejects.toThrow(mismatch);
      const streamed = await paying(swapped).convertFile({ input: png, targetFormat: 'webp', as: 'stream' });
      await expect(new Response(streamed.stream).arrayBuffer()).rejects.toThrow(mismatch);
    });

    it('a receipt signed by another key is a VerificationError', async () => {
      const otherKey = altering((url) => url.endsWith('/.well-known/did.json'), async (response) => {
        const document = (await response.json()) as { verificationMethod: Array<{ publicKeyJwk: { x: string } }> };
        document.verificationMethod[0]!.publicKeyJwk.x = Buffer.alloc(32, 7).toString('base64url');
        return Response.json(document);
      });
      await expect(paying(otherKey).detectFile(png)).rejects.toBeInstanceOf(VerificationError);
    });
  });

  it('pays on the service\'s local Solana with a payer given its RPC URL: detection and a whole conversion, each settled once, receipts signed', async () => {
    const solana = service.solanaDevChain;
    const signer = await createKeyPairSignerFromBytes(Uint8Array.from(solana.payerSecretKey));
    const [tokenAccount] = await findAssociatedTokenPda({ owner: signer.address, mint: address(solana.usdc), tokenProgram: TOKEN_PROGRAM_ADDRESS });
    const balance = async () => {
      const answer = await fetch(solana.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getTokenAccountBalance', params: [tokenAccount] }) });
      return BigInt(((await answer.json()) as { result: { value: { amount: string } } }).result.value.amount);
    };
    const payer = createPayer({ account, svmSigner: signer, svmRpcUrl: solana.rpcUrl, allow: [{ network: solana.network, asset: solana.usdc }], maxPerPayment: 50_000n });
    const client = createClient({ baseUrl: service.baseUrl, payer });
    const before = await balance();
    const detected = await client.detectFile(png);
    const converted = await client.convertFile({ input: png, targetFormat: 'webp' });
    expect(isWebp(converted.data)).toBe(true);
    for (const receipt of [detected.receipt!, ...converted.receipts]) {
      expect(receipt).toMatchObject({ network: solana.network, payer: signer.address, transaction: expect.stringMatching(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/) });
      expect(receipt.signed).toMatchObject({ network: solana.network, transaction: receipt.transaction });
    }
    expect(converted.deliveryRecord?.payment).toMatchObject({ network: solana.network, asset: solana.usdc, transaction: converted.receipts[1]!.transaction });
    expect(await balance()).toBe(before - JOB_FEE - JOB_FEE - RESULT_PRICE);
  });

  it('getFormats is free and lists what the running workers convert, with the options of each conversion', async () => {
    const before = await payerBalance();
    const catalogue = await createClient({ baseUrl: service.baseUrl }).getFormats();
    const png = catalogue.formats.find((format) => format.id === 'png');
    expect(png?.targets.find((target) => target.format === 'webp')?.options).toContain('quality');
    expect(png?.targets.find((target) => target.format === 'gif')?.options).toContain('width');
    expect(catalogue.option_schemas.quality).toMatchObject({ type: 'integer', minimum: 1, maximum: 100 });
    expect(catalogue.pairs).toBe(catalogue.formats.reduce((sum, format) => sum + format.targets.length, 0));
    expect(await payerBalance()).toBe(before);
  });

  it('convertFile sends its options: a width resizes the result', async () => {
    const converted = await paying().convertFile({ input: png, targetFormat: 'gif', options: { width: 4 } });
    // GIF logical screen width: bytes 6..7, little-endian (the source is 8 pixels wide).
    expect(Buffer.from(converted.data.subarray(0, 6)).toString()).toMatch(/^GIF8[79]a$/);
    expect(converted.data[6]! | (converted.data[7]! << 8)).toBe(4);
  });

  it('an option that does not apply to the conversion is refused before any payment, naming those that do', async () => {
    const before = await payerBalance();
    const error = await paying()
      .convertFile({ input: png, targetFormat: 'webp', options: { bitrate: '128k' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(422);
    expect((error as ApiError).message).toMatch(/bitrate.*does not apply.*quality/);
    expect(await payerBalance()).toBe(before);
  });

  it('ffmpeg is installed, so the server can convert audio (CI installs it; without it the audio tests below fail)', () => {
    const ffmpeg = spawnSync('ffmpeg', ['-version'], { encoding: 'utf8' });
    expect(ffmpeg.error, 'FFMPEG IS MISSING on this machine: install it (apt-get install ffmpeg) to test audio conversions').toBeUndefined();
  });

  it('convertFile turns a WAV into mp3 (ffmpeg on the server), as a stream', async () => {
    const converted = await paying().convertFile({ input: { data: toneWav(), filename: 'tone.wav' }, targetFormat: 'mp3', as: 'stream' });
    const bytes = new Uint8Array(await new Response(converted.stream).arrayBuffer());
    expect(isMp3(bytes)).toBe(true);
    expect(converted).toMatchObject({ mimeType: 'audio/mpeg', sizeBytes: bytes.length, filename: 'tone.mp3' });
  });

  it('convertFile again with the same idempotency key pays nothing more: the job fee once, the result once', async () => {
    const client = paying();
    const before = await payerBalance();
    const first = await client.convertFile({ input: png, targetFormat: 'jpg', idempotencyKey: 'sdk-retry-key-0001' });
    const again = await client.convertFile({ input: png, targetFormat: 'jpg', idempotencyKey: 'sdk-retry-key-0001' });
    expect(again.jobId).toBe(first.jobId);
    expect(first.receipts).toHaveLength(2);
    expect(again.receipts).toEqual([]);
    expect(again.resultPayment).toEqual(first.resultPayment);
    expect(again.data).toEqual(first.data);
    expect(await payerBalance()).toBe(before - JOB_FEE - RESULT_PRICE);
  });

  it('when the answer to the paid start is lost, convertFile retries with its key and pays the job fee once', async () => {
    const recorder = recordingFetch();
    let lost = false;
    const losingFirstPaidStart: typeof globalThis.fetch = async (input, init) => {
      const response = await recorder.fetch(input, init);
      const last = recorder.requests.at(-1)!;
      if (!lost && last.signed && last.path === '/api/x402/v1/convert-file') {
        lost = true;
        throw new TypeError('fetch failed'); // the server charged and created the job; the client never hears of it
      }
      return response;
    };
    const before = await payerBalance();
    const converted = await paying(losingFirstPaidStart).convertFile({ input: png, targetFormat: 'webp' });
    expect(isWebp(converted.data)).toBe(true);
    const starts = recorder.requests.filter((request) => request.path === '/api/x402/v1/convert-file');
    // Both paid on their first try (from the challenge the service publishes); the service finds the retry's job by
    // its key and settles nothing: the job fee is paid once.
    expect(starts.map((request) => request.signed)).toEqual([true, true]);
    expect(converted.receipts).toHaveLength(1);
    expect(await payerBalance()).toBe(before - JOB_FEE - RESULT_PRICE);
  });

  it('a failed conversion raises JobFailedError and buys nothing', async () => {
    const corrupt = Uint8Array.from([...tinyPng().subarray(0, 40), ...new Array(200).fill(7)]);
    const before = await payerBalance();
    const error = await paying()
      .convertFile({ input: { data: corrupt, filename: 'broken.png' }, targetFormat: 'webp' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JobFailedError);
    expect(error).toMatchObject({
      failureType: 'unsupported_or_corrupt_input',
      chargedAmount: { amount: '0.000000', atomic_units: '0', decimals: 6 },
      jobId: expect.stringMatching(/^job_/),
      idempotencyKey: expect.stringMatching(/^fsdk-/),
    });
    expect(await payerBalance()).toBe(before - JOB_FEE);
  });

  it('an AbortSignal stops convertFile while it waits for the job: the waiting status request is cancelled, none after it, nothing bought, and the job can be resumed with its key', async () => {
    const controller = new AbortController();
    const recorder = recordingFetch();
    const seen: string[] = [];
    let requestsAtAbort = 0;
    // Aborts as soon as the first status request is on its way: the long poll is waiting for the job's end.
    const abortingFetch: typeof fetch = (input, init) => {
      const answer = recorder.fetch(input, init);
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (url.includes('/status') && !controller.signal.aborted) {
        setTimeout(() => {
          requestsAtAbort = recorder.requests.length;
          controller.abort(new Error('stopped by the test'));
        }, 0);
      }
      return answer;
    };
    const client = paying(abortingFetch);
    const before = await payerBalance();
    const longWav = { data: toneWav(10), filename: 'long.wav' };
    const error = await client
      .convertFile({ input: longWav, targetFormat: 'mp3', signal: controller.signal, onProgress: (status) => seen.push(status.status) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConversionInterruptedError);
    expect(error).toMatchObject({ name: 'AbortError', aborted: true, message: 'stopped by the test', jobId: expect.stringMatching(/^job_/), idempotencyKey: expect.stringMatching(/^fsdk-/) });
    expect(seen).toEqual([]);
    expect(recorder.requests.at(requestsAtAbort - 1)).toMatchObject({ method: 'GET', path: expect.stringMatching(/\/status$/) });
    expect(recorder.requests.slice(requestsAtAbort)).toEqual([]);
    expect(await payerBalance()).toBe(before - JOB_FEE);

    // What the abort left on the server: the paid job, still converting. The same key resumes it without a second job fee.
    const { jobId, idempotencyKey } = error as ConversionInterruptedError;
    const resumed = await client.convertFile({ input: longWav, targetFormat: 'mp3', idempotencyKey });
    expect(resumed.jobId).toBe(jobId);
    expect(isMp3(resumed.data)).toBe(true);
    expect(await payerBalance()).toBe(before - JOB_FEE - RESULT_PRICE);
  });

  it('job helpers: an unknown job is a typed 404; a deleted job answers 410', async () => {
    const client = paying();
    const missing = await client.getJob(`job_${'x'.repeat(24)}`).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ApiError);
    expect(missing).toMatchObject({ status: 404, code: 'not_found' });
    const started = await client.startConversion(png, 'gif');
    expect(await client.deleteJob(started.job_id)).toMatchObject({ success: true });
    expect(await client.getJob(started.job_id).catch((e: unknown) => e)).toMatchObject({ name: 'ApiError', status: 410, message: 'The job was deleted.' });
  });
});
