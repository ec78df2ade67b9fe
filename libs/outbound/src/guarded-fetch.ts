import type { IncomingHttpHeaders } from 'node:http';
import type { SecureContextOptions } from 'node:tls';
import { checkAddresses } from './check-addresses.js';
import { OutboundError, OutboundErrorCode } from './outbound-error.js';
import type { OutboundPolicy } from './outbound-policy.js';
import { isRedirect, redirectedRequest, type HopRequest } from './redirect-rules.js';
import { type CheckedAnswer, type Resolve, resolveHost, systemResolve } from './resolve-host.js';
import { type BodyDestination, readBody } from './response-body.js';
import { sendHop } from './send-hop.js';
import { checkTargetUrl, type TargetUrl } from './target-url.js';

export interface GuardedFetchOptions {
  /** The operator's allow- and deny-lists and extra ports (`outboundPolicyFromEnv`). */
  policy: OutboundPolicy;
  /** The most decoded body bytes kept; more refuses the request (`too_large`). */
  maxBytes: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Where the body goes: a file path, a stream (ended on success, destroyed on failure), or memory (`body`). */
  to?: BodyDestination;
  /** From the first lookup to the last body byte, every redirect included. Default 30 s. */
  timeoutMs?: number;
  /** The longest the server may send nothing, while connecting, before the head, or within the body. Default 10 s. */
  idleTimeoutMs?: number;
  /** Redirects followed, each checked like the first URL. Default 5; 0 refuses any redirect. */
  maxRedirects?: number;
  /** The statuses that count as success; any other refuses the request (`http_status`). Default 2xx. */
  acceptStatus?: (status: number) => boolean;
  /** Resolves host names; default the system resolver. Called once per hop, and the connection uses its answers. */
  resolve?: Resolve;
  /** Certificate authorities to trust instead of Node's bundle (an internal CA; the tests' own). */
  ca?: SecureContextOptions['ca'];
  signal?: AbortSignal;
}

export interface GuardedResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The URL the body came from, after redirects. */
  url: string;
  redirects: number;
  /** Decoded body bytes. */
  bytes: number;
  /** The body, when `to` was not given. */
  body?: Buffer;
}

// Headers the guard owns: the host comes from the checked URL, the length from the body, the codings from what
// it decodes.
const OWNED_HEADERS = ['host', 'content-length', 'transfer-encoding', 'connection', 'accept-encoding'];

function requestOf(options: GuardedFetchOptions): HopRequest {
  const headers = Object.fromEntries(Object.entries(options.headers ?? {}).filter(([name]) => !OWNED_HEADERS.includes(name.toLowerCase())));
  return {
    method: (options.method ?? 'GET').toUpperCase(),
    headers: { 'user-agent': 'fileshift', ...headers, 'accept-encoding': 'gzip, deflate, br' },
    body: options.body,
  };
}

async function checkedAnswersOf(target: TargetUrl, options: GuardedFetchOptions, subject: string, signal: AbortSignal): Promise<CheckedAnswer[]> {
  if (target.address) {
    checkAddresses(target.host, [target.address], options.policy, { isLiteral: true, subject });
    return [{ text: target.host, address: target.address }];
  }
  const answers = await untilAborted(resolveHost(options.resolve ?? systemResolve, target.host, subject), signal);
  checkAddresses(
    target.host,
    answers.map((answer) => answer.address),
    options.policy,
    { isLiteral: false, subject },
  );
  return answers;
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** A signal that fires at the total time limit or with the caller's own signal, whichever comes first. */
function deadlineOf(timeoutMs: number, callerSignal: AbortSignal | undefined) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new OutboundError(OutboundErrorCode.Timeout, `The request took longer than ${timeoutMs / 1000} s`)), timeoutMs);
  const onCallerAbort = () => controller.abort(new OutboundError(OutboundErrorCode.Aborted, 'The request was cancelled'));
  if (callerSignal?.aborted) onCallerAbort();
  callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
  const dispose = () => {
    clearTimeout(timer);
    callerSignal?.removeEventListener('abort', onCallerAbort);
  };
  return { signal: controller.signal, dispose };
}

/**
 * An outbound HTTP(S) request made for a caller, under the guard: every hop's URL and every address its host
 * resolves to are checked before connecting, the connection goes only to the checked addresses, redirects are
 * checked the same way, and the body is kept under a byte limit and a time limit. Throws `OutboundError`.
 */
export async function guardedFetch(url: string, options: GuardedFetchOptions): Promise<GuardedResponse> {
  const maxRedirects = options.maxRedirects ?? 5;
  const deadline = deadlineOf(options.timeoutMs ?? 30_000, options.signal);
  try {
    let request = requestOf(options);
    let target = checkTargetUrl(url, options.policy);
    for (let redirects = 0; ; redirects++) {
      const subject = redirects === 0 ? 'The URL' : 'A redirect';
      const answers = await checkedAnswersOf(target, options, subject, deadline.signal);
      const hop = await sendHop(target, answers, request, { idleTimeoutMs: options.idleTimeoutMs ?? 10_000, signal: deadline.signal, ca: options.ca });
      const { statusCode: status = 0, headers } = hop.response;
      if (isRedirect(status, headers.location)) {
        hop.destroy();
        if (redirects >= maxRedirects) throw new OutboundError(OutboundErrorCode.TooManyRedirects, `The URL redirects more than ${maxRedirects} times`);
        const next = checkTargetUrl(headers.location!, options.policy, { base: target.url, subject: 'A redirect' });
        request = redirectedRequest(status, request, target.url, next.url);
        target = next;
        continue;
      }
      if (!(options.acceptStatus ?? ((code) => code >= 200 && code < 300))(status)) {
        hop.destroy();
        throw new OutboundError(OutboundErrorCode.HttpStatus, `The server answered HTTP ${status}`, { status });
      }
      const body = await readBody(hop, { maxBytes: options.maxBytes, to: options.to });
      return { status, headers, url: target.url.href, redirects, ...body };
    }
  } finally {
    deadline.dispose();
  }
}
