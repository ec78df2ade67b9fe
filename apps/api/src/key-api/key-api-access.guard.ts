import { type CanActivate, type ExecutionContext, Inject, Injectable, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { looksLikeApiKeySecret } from '../api-keys/api-key-secret.js';
import { ApiKeysRepository } from '../api-keys/api-keys.repository.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import { ServiceMetrics } from '../metrics/service-metrics.js';
import { RateLimitError, RateLimitErrorCode } from '../rate-limit/rate-limit.error.js';
import { RateLimitStore, type WindowCount } from '../rate-limit/rate-limit.store.js';
import { attachKeyApiCaller, type KeyApiCaller } from './key-api-caller.js';
import { KeyApiRequestError, KeyApiRequestErrorCode } from './key-api-request.error.js';

const MINUTE = 60;
const DAY = 86_400;

/**
 * The key API's door: the Api-Key header names a key (401 when unknown or revoked); without it the
 * no-key testing limits apply per client IP, and so they do to refused keys. Then the per-minute rate
 * and the daily quota (429 with Retry-After). Counting happens in Redis; if Redis cannot be asked,
 * requests pass.
 */
@Injectable()
export class KeyApiAccessGuard implements CanActivate {
  private readonly logger = new Logger(KeyApiAccessGuard.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly keys: ApiKeysRepository,
    private readonly counters: RateLimitStore,
    private readonly metrics: ServiceMetrics,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    let caller: KeyApiCaller;
    try {
      caller = await this.identify(request.headers['api-key']);
    } catch (refusal) {
      // A refused key counts against its client IP under the no-key limits: guessing keys is throttled
      // like any other request without a valid key (429 once over them, else the 401).
      await this.enforceLimits(this.anonymous(), request.ip, reply);
      throw refusal;
    }
    await this.enforceLimits(caller, request.ip, reply);
    attachKeyApiCaller(request, caller);
    return true;
  }

  private anonymous(): KeyApiCaller {
    return { apiKeyId: null, limits: this.config.keyApi.anonymous };
  }

  private async identify(header: string | string[] | undefined): Promise<KeyApiCaller> {
    if (header === undefined) return this.anonymous();
    if (Array.isArray(header)) throw refused(KeyApiRequestErrorCode.SeveralKeys, 'Send one Api-Key header, not several.');
    if (header.trim() === '') throw refused(KeyApiRequestErrorCode.EmptyKey, 'The Api-Key header is empty; send a key, or leave the header out to use the no-key testing limits.');
    const key = looksLikeApiKeySecret(header.trim()) ? await this.keys.findBySecret(header.trim()) : null;
    if (!key) throw refused(KeyApiRequestErrorCode.InvalidKey, 'Invalid API key.');
    if (key.revokedAt) throw refused(KeyApiRequestErrorCode.RevokedKey, 'This API key has been revoked.');
    return { apiKeyId: key.id, limits: { requestsPerMinute: key.requestsPerMinute, dailyQuota: key.dailyQuota, maxUploadBytes: key.maxUploadBytes } };
  }

  private async enforceLimits(caller: KeyApiCaller, ip: string, reply: FastifyReply): Promise<void> {
    const who = caller.apiKeyId ? `key:${caller.apiKeyId}` : `ip:${ip}`;
    const whom = caller.apiKeyId ? 'for this API key' : 'without an API key (per client IP; use an API key for higher limits)';
    const { requestsPerMinute, dailyQuota } = caller.limits;
    let counts: WindowCount[];
    try {
      counts = await this.counters.hitWindows(`keyapi:${who}`, [
        { seconds: MINUTE, limit: requestsPerMinute },
        { seconds: DAY, limit: dailyQuota },
      ]);
    } catch (error) {
      this.logger.warn(`key API limits not checked: ${(error as Error).message}`);
      return;
    }
    const [minute, day] = counts as [WindowCount, WindowCount];
    void reply
      .header('RateLimit-Limit', String(requestsPerMinute))
      .header('RateLimit-Remaining', String(Math.max(0, requestsPerMinute - minute.count)))
      .header('RateLimit-Reset', String(minute.resetInSeconds));
    if (minute.count > requestsPerMinute) {
      this.metrics.rateLimited('key', 'per_minute');
      throw new RateLimitError(RateLimitErrorCode.TooManyRequests, `Rate limit exceeded: at most ${requestsPerMinute} requests per minute ${whom}. Retry after ${minute.resetInSeconds} s.`, undefined, minute.resetInSeconds);
    }
    if (day.count > dailyQuota) {
      this.metrics.rateLimited('key', 'daily_quota');
      throw new RateLimitError(RateLimitErrorCode.DailyQuotaExceeded, `Daily quota exceeded: at most ${dailyQuota} requests per UTC day ${whom}. It resets at 00:00 UTC, in ${day.resetInSeconds} s.`, undefined, day.resetInSeconds);
    }
  }
}

const refused = (code: KeyApiRequestErrorCode, message: string) => new KeyApiRequestError(code, message);
