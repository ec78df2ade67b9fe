import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { FacilitatorResponseError, type FacilitatorClient } from '@x402/core/server';
import type { PaymentPayload, PaymentRequirements, SettleResponse, SupportedResponse, VerifyResponse } from '@x402/core/types';
import { fromThreadError, type ThreadError } from './thread-error.js';

export type FacilitatorCall = { id: number; method: 'verify' | 'settle'; args: [PaymentPayload, PaymentRequirements] } | { id: number; method: 'getSupported'; args: [] };

/** What the thread is given: the EVM dev chain, and the Solana dev chain when the facilitator serves it too. */
export interface FacilitatorThreadData {
  rpcUrl: string;
  solanaRpcUrl?: string;
}

export interface FacilitatorThreadOptions {
  /** The Solana dev chain's RPC URL (SolanaDevChain.rpcUrl): the same facilitator then settles payments there too. */
  solanaRpcUrl?: string;
}

export type FacilitatorAnswer = { id: number; value: unknown; error?: undefined } | { id: number; error: ThreadError };

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

const ENTRY = new URL(`./facilitator-thread.worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url);

/** The worker's module code: the built entry as it is, or (under the tests' TypeScript sources) compiled by tsx as they are. */
function workerModule(): URL {
  let code = `await import(${JSON.stringify(ENTRY.href)});`;
  if (ENTRY.pathname.endsWith('.ts')) {
    const tsx = import.meta.resolve('tsx/esm/api');
    code = `const { register } = await import(${JSON.stringify(tsx)}); register(); ${code}`;
  }
  return new URL(`data:text/javascript,${encodeURIComponent(code)}`);
}

interface Thread {
  worker: Worker;
  /** Its calls under way, by id. */
  pending: Map<number, Pending>;
}

/**
 * The dev chain's facilitator (a LocalFacilitatorClient) in a thread of its own. Its work is mostly
 * elliptic-curve arithmetic in JavaScript — recovering each payment's signature in verify and again in
 * settle, signing the settlement — about 4 ms a payment here, which in the service's own thread held up
 * every other request; a live facilitator does this work in another service. Errors cross as themselves
 * (thread-error.ts); a thread that stops fails its calls as an outage, and the next call starts another.
 */
export class FacilitatorThread implements FacilitatorClient {
  private thread: Thread | undefined;
  private nextId = 1;

  constructor(
    private readonly rpcUrl: string,
    private readonly options: FacilitatorThreadOptions = {},
  ) {}

  verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyResponse> {
    return this.call('verify', [payload, requirements]) as Promise<VerifyResponse>;
  }

  settle(payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleResponse> {
    return this.call('settle', [payload, requirements]) as Promise<SettleResponse>;
  }

  getSupported(): Promise<SupportedResponse> {
    return this.call('getSupported', []) as Promise<SupportedResponse>;
  }

  /** Stops the thread; calls still under way fail as an outage. */
  async dispose(): Promise<void> {
    const thread = this.thread;
    this.thread = undefined;
    await thread?.worker.terminate();
  }

  private call(method: FacilitatorCall['method'], args: FacilitatorCall['args']): Promise<unknown> {
    const { worker, pending } = this.started();
    const id = this.nextId++;
    // Held while calls are under way, and only then: an idle facilitator must not keep the process alive.
    if (pending.size === 0) worker.ref();
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, method, args } as FacilitatorCall);
    });
  }

  private started(): Thread {
    if (this.thread) return this.thread;
    const thread: Thread = { worker: new Worker(workerModule(), { workerData: { rpcUrl: this.rpcUrl, solanaRpcUrl: this.options.solanaRpcUrl } satisfies FacilitatorThreadData }), pending: new Map() };
    const { worker, pending } = thread;
    worker.unref();
    worker.on('message', (answer: FacilitatorAnswer) => {
      const call = pending.get(answer.id);
      if (!call) return;
      pending.delete(answer.id);
      if (pending.size === 0) worker.unref();
      if (answer.error) call.reject(fromThreadError(answer.error));
      else call.resolve(answer.value);
    });
    const stopped = (why: string) => {
      if (this.thread === thread) this.thread = undefined;
      for (const call of pending.values()) call.reject(new FacilitatorResponseError(`the dev facilitator's thread stopped: ${why}`));
      pending.clear();
    };
    worker.on('error', (error) => stopped(error.message));
    worker.on('exit', (code) => stopped(`exit code ${code}`));
    this.thread = thread;
    return thread;
  }
}
