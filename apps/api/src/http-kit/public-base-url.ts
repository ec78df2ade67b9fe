import type { FastifyRequest } from 'fastify';
import type { AppConfig } from '../config/app-config.js';

/** PUBLIC_BASE_URL when configured (behind a proxy); otherwise what the request itself was addressed to. */
export function publicBaseUrl(config: Pick<AppConfig, 'publicBaseUrl'>, request: FastifyRequest): string {
  if (config.publicBaseUrl) return config.publicBaseUrl;
  return `${request.protocol}://${request.host}`;
}
