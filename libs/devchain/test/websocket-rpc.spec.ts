import type { AddressInfo } from 'node:net';
import { RpcRequestError, TimeoutError } from 'viem';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { WebSocketRpc } from '../src/websocket-rpc.js';

/** A JSON-RPC server over WebSocket that answers each request as `answer` says. */
async function rpcServer(answer: (request: { id: number; method: string }, connection: number) => object | 'drop' | 'ignore') {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((resolve) => server.once('listening', resolve));
  let connections = 0;
  server.on('connection', (socket) => {
    const connection = ++connections;
    socket.on('message', (data) => {
      const request = JSON.parse(String(data)) as { id: number; method: string };
      const reply = answer(request, connection);
      if (reply === 'drop') socket.terminate();
      else if (reply !== 'ignore') socket.send(JSON.stringify({ jsonrpc: '2.0', id: request.id, ...reply }));
    });
  });
  return { url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`, connections: () => connections, close: () => server.close() };
}

describe('WebSocketRpc', () => {
  const cleanups: Array<() => void> = [];
  afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

  it('answers results, and RPC errors as viem RpcRequestErrors with their code', async () => {
    const server = await rpcServer((request) => (request.method === 'eth_chainId' ? { result: '0x7a69' } : { error: { code: -32000, message: 'nonce too low' } }));
    const rpc = new WebSocketRpc(server.url);
    cleanups.push(() => rpc.close(), server.close);
    expect(await rpc.request('eth_chainId', [])).toBe('0x7a69');
    const refused = await rpc.request('eth_sendRawTransaction', ['0x00']).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RpcRequestError);
    expect(refused).toMatchObject({ code: -32000, details: 'nonce too low' });
  });

  it('fails the requests in flight when the connection drops, and reconnects for the next one', async () => {
    const server = await rpcServer((_, connection) => (connection === 1 ? 'drop' : { result: 'again' }));
    const rpc = new WebSocketRpc(server.url, 60_000);
    cleanups.push(() => rpc.close(), server.close);
    await expect(rpc.request('eth_blockNumber', [])).rejects.toThrow(/closed/);
    expect(await rpc.request('eth_blockNumber', [])).toBe('again');
    expect(server.connections()).toBe(2);
  });

  it('refuses at once when nothing listens, and gives up on an unanswered request after its timeout', async () => {
    const gone = await rpcServer(() => ({ result: null }));
    gone.close();
    const unreachable = new WebSocketRpc(gone.url, 60_000);
    await expect(unreachable.request('eth_chainId', [])).rejects.toThrow(/cannot reach/);

    const silent = await rpcServer(() => 'ignore');
    const rpc = new WebSocketRpc(silent.url, 50);
    cleanups.push(() => rpc.close(), silent.close);
    await expect(rpc.request('eth_chainId', [])).rejects.toBeInstanceOf(TimeoutError);
  });

  it('refuses requests once closed', async () => {
    const server = await rpcServer(() => ({ result: '0x1' }));
    const rpc = new WebSocketRpc(server.url);
    cleanups.push(server.close);
    expect(await rpc.request('eth_chainId', [])).toBe('0x1');
    rpc.close();
    await expect(rpc.request('eth_chainId', [])).rejects.toThrow(/closed/);
  });
});
