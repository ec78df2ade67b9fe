import { Redis } from 'ioredis';
import { redactRedisUrl, redisOptionsFromUrl } from './redis-options.js';

/**
 * One connection attempt, no retries, bounded in time. Start-up calls it so an unreachable Redis
 * ends the process with one clear line instead of a storm of reconnection errors.
 */
export async function checkRedisReachable(redisUrl: string, timeoutMs: number): Promise<string | null> {
  const client = new Redis({
    ...redisOptionsFromUrl(redisUrl),
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.ping();
    return null;
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    return (
      `Redis is not reachable at ${redactRedisUrl(redisUrl)} (${reason}). ` +
      'Start it (e.g. `redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no`) or set REDIS_URL.'
    );
  } finally {
    client.disconnect();
  }
}
