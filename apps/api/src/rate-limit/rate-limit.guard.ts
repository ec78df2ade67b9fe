import { type CanActivate, type ExecutionContext, Inject, Injectable, Logger } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import { apiOfPath, matchedRoutePattern, normalisedPath } from '../http-kit/api-of-request.js';
import { ServiceMetrics } from '../metrics/service-metrics.js';
import { RateLimitError, RateLimitErrorCode } from './rate-limit.error.js';
import { RateLimitStore } from './rate-limit.store.js';

const WINDOW_SECONDS = 60;
/** Route patterns of the health probes, which are never throttled. */
const HEALTH_ROUTE = /^\/api\/x402\/v1\/health(\/|$)/;
/** The hosted MCP endpoint (mcp-endpoint/). */
const MCP_ENDPOINT_ROUTE = '/mcp';

/**
 * Per-client limit on the x402 API (health excluded, so probes are never throttled): 429 with
 * Retry-After past X402_RATE_LIMIT_PER_MINUTE. Which requests count is decided by the route the router
 * matched, not by the URL as sent, so no spelling of a path (`/api/x402/v%31/…`) escapes the count.
 * If Redis cannot be asked, requests pass: the limit protects the service; it must not take it down.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly logger = new Logger(RateLimitGuard.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly store: RateLimitStore,
    private readonly metrics: ServiceMetrics,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (!isLimited(request)) return true;
    let hit;
    try {
      hit = await this.store.hit(request.ip, { seconds: WINDOW_SECONDS, limit: this.config.x402RateLimitPerMinute });
    } catch (error) {
      this.logger.warn(`rate limit not checked: ${(error as Error).message}`);
      return true;
    }
    if (hit.count > this.config.x402RateLimitPerMinute) {
      this.metrics.rateLimited('x402', 'per_minute');
      throw new RateLimitError(
        RateLimitErrorCode.TooManyRequests,
        `Too many requests: at most ${this.config.x402RateLimitPerMinute} per minute per client. Retry after ${hit.resetInSeconds} s.`,
        undefined,
        hit.resetInSeconds,
      );
    }
    return true;
  }
}

/** Every x402 route but health, by the matched route (guards run only on matched routes; the path stands in otherwise). */
function isLimited(request: FastifyRequest): boolean {
  const route = matchedRoutePattern(request) ?? normalisedPath(request.url);
  // The hosted MCP endpoint's calls are the x402 API's operations: each POST counts as one of its requests.
  if (route === MCP_ENDPOINT_ROUTE) return request.method === 'POST';
  return apiOfPath(route) === 'x402' && !HEALTH_ROUTE.test(route);
}
