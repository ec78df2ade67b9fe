import { Controller, Delete, Get, HttpCode, Inject, Logger, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import { clientGoneSignal } from '../http-kit/client-gone.js';
import { allowedOrigin } from '../http-kit/cross-origin.js';
import { publicBaseUrl } from '../http-kit/public-base-url.js';
import { createMcpServer } from './mcp-server.js';
import { McpTools } from './mcp-tools.js';

/** Where the hosted MCP endpoint answers. */
export const MCP_PATH = '/mcp';

/**
 * The hosted MCP endpoint: Streamable HTTP, stateless (a new server and transport per request, no session), so
 * any client may pay any call on its own. Answers are JSON, not event streams: no tool sends anything before
 * its result. The API's rate limit counts each POST (rate-limit.guard.ts); a page from an origin the API's CORS
 * rules do not allow is refused.
 */
@ApiExcludeController()
@Controller(MCP_PATH.slice(1))
export class McpEndpointController {
  private readonly logger = new Logger(McpEndpointController.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly tools: McpTools,
  ) {}

  @Post()
  async post(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    // A page the API's CORS rules do not allow gets nothing (DNS rebinding, a page posting without a preflight).
    const origin = request.headers.origin;
    if (origin !== undefined && !allowedOrigin(this.config.corsAllowedOrigins, origin)) {
      return void (await reply.status(403).send(jsonRpcError(`Origin ${origin} is not allowed (CORS_ALLOWED_ORIGINS).`)));
    }
    const call = { baseUrl: publicBaseUrl(this.config, request), userAgent: request.headers['user-agent'], signal: clientGoneSignal(reply) };
    const server = createMcpServer(this.tools, this.config.version, call, (error) => this.logger.error(`MCP tool call failed: ${String(error)}`, (error as Error).stack));
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    try {
      await server.connect(transport);
      const answer = await transport.handleRequest(webRequestOf(request), { parsedBody: request.body });
      await reply
        .status(answer.status)
        .headers(Object.fromEntries(answer.headers))
        .send(answer.body ? Buffer.from(await answer.arrayBuffer()) : undefined);
    } finally {
      await server.close();
    }
  }

  /** No server-initiated stream and no session to end: a stateless endpoint answers only POST. */
  @Get()
  @HttpCode(405)
  stream(@Res({ passthrough: true }) reply: FastifyReply): object {
    reply.header('Allow', 'POST');
    return jsonRpcError('Method not allowed: this endpoint is stateless; POST each JSON-RPC message.');
  }

  @Delete()
  @HttpCode(405)
  end(@Res({ passthrough: true }) reply: FastifyReply): object {
    return this.stream(reply);
  }
}

/** The transport reads the method, the headers (Accept, Content-Type, MCP-Protocol-Version) and the URL; the body is already parsed. */
function webRequestOf(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  return new Request(`http://localhost${request.url}`, { method: request.method, headers });
}

function jsonRpcError(message: string): object {
  return { jsonrpc: '2.0', error: { code: -32000, message }, id: null };
}
