import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchUrlInput } from '../src/url-input/fetch-url-input.js';

const options = (devHosts: string[] = []) => ({ maxBytes: 1024, timeoutMs: 2000, devHosts });

describe('fetchUrlInput: the address checked is the address connected to', () => {
  let server: Server;
  let port: number;
  const hosts: string[] = [];
  beforeAll(async () => {
    server = createServer((request, response) => {
      hosts.push(request.headers.host ?? '');
      response.end('hello');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => void server.close());

  it('connects to the address its own resolution returned (the system resolver knows no such name), sending the name as Host', async () => {
    const resolved: string[] = [];
    const fetched = await fetchUrlInput(`http://files.invalid:${port}/notes.txt`, options([`files.invalid:${port}`]), async (name) => {
      resolved.push(name);
      return ['127.0.0.1'];
    });
    expect(Buffer.from(fetched.bytes).toString()).toBe('hello');
    expect(fetched.filename).toBe('notes.txt');
    expect(resolved).toEqual(['files.invalid']); // resolved once: no second lookup between check and connect
    expect(hosts.at(-1)).toBe(`files.invalid:${port}`);
  });

  it('refuses a name when any of its addresses is not public, without connecting', async () => {
    const before = hosts.length;
    await expect(fetchUrlInput(`https://mixed.invalid:${port}/x`, options(), async () => ['93.184.215.14', '127.0.0.1'])).rejects.toThrow(
      'mixed.invalid resolves to a loopback address (127.0.0.1); only public addresses are fetched',
    );
    await expect(fetchUrlInput('https://nowhere.invalid/x', options(), async () => Promise.reject(new Error('ENOTFOUND')))).rejects.toThrow('nowhere.invalid could not be resolved');
    expect(hosts.length).toBe(before);
  });

  it('cuts a body off at the cap', async () => {
    await expect(fetchUrlInput(`http://127.0.0.1:${port}/`, { ...options([`127.0.0.1:${port}`]), maxBytes: 3 })).rejects.toThrow('is 5 bytes; the service converts files up to 3 bytes');
  });
});
