import { lookup } from 'node:dns/promises';
import { type IncomingMessage, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { FileInputError } from '../file-input-error.js';
import { classifyAddress, isPublicAddress } from './address-class.js';
import { responseFilename } from './response-filename.js';

export interface UrlFetchOptions {
  /** Larger bodies are cut off while streaming. */
  maxBytes: number;
  /** For the whole fetch, redirects included. */
  timeoutMs: number;
  /** Development only: `host[:port]` entries fetched over http too and at any address (e.g. a local test server). */
  devHosts: readonly string[];
}

const MAX_REDIRECTS = 3;

/** Every address a host name has; the system resolver unless a test passes its own. */
export type ResolveHost = (hostname: string) => Promise<string[]>;

const systemResolver: ResolveHost = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

export interface FetchedFile {
  bytes: Uint8Array;
  filename: string;
}

/**
 * Downloads a file an agent named by URL, so that the URL cannot make this server reach its own network:
 * https only; every hop's host is resolved here and refused if any address is not public; the connection
 * goes to the address that was checked (no second DNS answer between check and connect); at most three
 * redirects, each checked again; the size capped while streaming; one deadline for everything.
 */
export async function fetchUrlInput(text: string, options: UrlFetchOptions, resolveHost: ResolveHost = systemResolver): Promise<FetchedFile> {
  let url = parseUrl(text);
  const deadline = AbortSignal.timeout(options.timeoutMs);
  try {
    for (let redirects = 0; ; redirects++) {
      const address = await checkedAddress(url, options, resolveHost);
      const response = await get(url, address, deadline);
      const status = response.statusCode ?? 0;
      if ([301, 302, 303, 307, 308].includes(status)) {
        response.resume();
        const location = response.headers.location;
        if (!location) throw new FileInputError(`${url.href} answered a redirect (${status}) without a Location.`);
        if (redirects >= MAX_REDIRECTS) throw new FileInputError(`${text} redirects more than ${MAX_REDIRECTS} times; give the final URL.`);
        url = parseUrl(new URL(location, url).href);
        continue;
      }
      if (status < 200 || status > 299) {
        response.resume();
        throw new FileInputError(`${url.href} answered HTTP ${status}; nothing was paid.`);
      }
      const bytes = await readCapped(response, url, options.maxBytes);
      return { bytes, filename: responseFilename(response.headers['content-disposition'], url) };
    }
  } catch (error) {
    if (error instanceof FileInputError) throw error;
    if (deadline.aborted) throw new FileInputError(`${text} did not arrive within ${options.timeoutMs / 1000} s; nothing was paid.`);
    throw new FileInputError(`${url.href} could not be downloaded (${(error as Error).message}); nothing was paid.`);
  }
}

function parseUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new FileInputError(`"${text}" is not a URL.`);
  }
  if (url.username || url.password) throw new FileInputError('URLs with credentials are not fetched.');
  return url;
}

async function checkedAddress(url: URL, options: UrlFetchOptions, resolveHost: ResolveHost): Promise<string> {
  const dev = options.devHosts.includes(url.host.toLowerCase());
  if (url.protocol !== 'https:' && !(dev && url.protocol === 'http:')) {
    throw new FileInputError(`Only https URLs are fetched (${url.href} is ${url.protocol.slice(0, -1)}).`);
  }
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(hostname)
    ? [hostname]
    : await resolveHost(hostname).catch(() => {
        throw new FileInputError(`${url.hostname} could not be resolved; nothing was paid.`);
      });
  // One non-public answer is enough to refuse: a name that also points inside is not a public file host.
  const inside = dev ? undefined : addresses.find((address) => !isPublicAddress(address));
  if (inside) {
    throw new FileInputError(`${url.href} is refused: ${url.hostname} resolves to a ${classifyAddress(inside)} address (${inside}); only public addresses are fetched.`);
  }
  if (addresses.length === 0) throw new FileInputError(`${url.hostname} has no address; nothing was paid.`);
  return addresses[0];
}

function get(url: URL, address: string, signal: AbortSignal): Promise<IncomingMessage> {
  const family = isIP(address);
  // Node asks for one address or for all of them, depending on its connection options.
  const pinned: LookupFunction = (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) (callback as unknown as (error: null, all: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    // No agent: a kept-alive socket could lead somewhere other than the address just checked.
    const request = send(url, { method: 'GET', agent: false, lookup: pinned, signal, headers: { 'user-agent': 'fileshift-mcp', accept: '*/*' } }, resolve);
    request.once('error', reject);
    request.end();
  });
}

async function readCapped(response: IncomingMessage, url: URL, maxBytes: number): Promise<Uint8Array> {
  const tooBig = (size: string) => new FileInputError(`${url.href} is ${size} bytes; the service converts files up to ${maxBytes} bytes. Nothing was paid.`);
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.destroy();
    throw tooBig(String(declared));
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) {
      response.destroy();
      throw tooBig(`more than ${maxBytes}`);
    }
    chunks.push(chunk as Buffer);
  }
  if (size === 0) throw new FileInputError(`${url.href} is empty.`);
  return new Uint8Array(Buffer.concat(chunks));
}
