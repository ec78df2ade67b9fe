import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, LATEST_PROTOCOL_VERSION, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIdleHttpServer } from './support/built-http-server.js';

/** Every `type` keyword in a schema, wherever it sits. */
function typeKeywords(node: unknown): unknown[] {
  if (Array.isArray(node)) return node.flatMap(typeKeywords);
  if (typeof node !== 'object' || node === null) return [];
  return Object.entries(node).flatMap(([key, value]) => (key === 'type' && typeof value !== 'object' ? [value] : key === 'type' ? [value, ...typeKeywords(value)] : typeKeywords(value)));
}

describe('the built server speaks MCP as the specification asks (over Streamable HTTP)', () => {
  let server: Awaited<ReturnType<typeof startIdleHttpServer>>;
  let url: string;
  let client: Client;
  let transport: StreamableHTTPClientTransport;
  beforeAll(async () => {
    server = await startIdleHttpServer();
    url = server.url;
    client = new Client({ name: 'protocol-test', version: '1.0.0' });
    transport = new StreamableHTTPClientTransport(new URL(url));
    await client.connect(transport);
  });
  afterAll(async () => {
    await client?.close();
    await server?.stop();
  });

  it(`negotiates the latest protocol version the SDK knows (${LATEST_PROTOCOL_VERSION})`, () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'fileshift' });
    expect(transport.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
  });

  it('answers a call to an unknown tool with a protocol error -32602, not a tool result', async () => {
    const error = await client.callTool({ name: 'convert_everything', arguments: {} }).then(
      (result) => result,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({ code: ErrorCode.InvalidParams, message: expect.stringContaining('Unknown tool: convert_everything') });
  });

  it('still answers a known tool with invalid arguments as a tool error the model can read', async () => {
    const result = await client.callTool({ name: 'get_conversion_status', arguments: {} });
    expect(result.isError).toBe(true);
  });

  it('answers a body that is not JSON with -32700 (parse error)', async () => {
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc": "2.0", "id": 1,' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
  });

  it('lists schemas without type arrays (nullable fields as anyOf with null), and nullable fields are still nullable', async () => {
    const { tools } = await client.listTools();
    const types = tools.flatMap((tool) => typeKeywords([tool.inputSchema, tool.outputSchema]));
    expect(types.length).toBeGreaterThan(20);
    expect(types.filter((type) => typeof type !== 'string')).toEqual([]);
    const status = tools.find((tool) => tool.name === 'wallet_status')!.outputSchema as { properties: Record<string, unknown> };
    expect(status.properties.service_unavailable).toMatchObject({ anyOf: [{ type: 'string' }, { type: 'null' }] });
  });

  it('wallet_status with the service down: its nulls validate against the served output schema', async () => {
    const result = await client.callTool({ name: 'wallet_status', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ balances: null, prices: null, service_unavailable: expect.any(String) });
  });
});
