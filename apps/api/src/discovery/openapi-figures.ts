import type { AppConfig } from '../config/app-config.js';
import type { ConfiguredFigure } from '../http-kit/configured-figures.js';
import { formatUsdcShort, resultTiers } from '../payments/pricing.js';

const MIB = 1024 * 1024;

/** Pure: the configured figures the OpenAPI text names (see CONFIGURED), as prose writes them. */
export function openApiFigures(config: Pick<AppConfig, 'prices' | 'keyApi' | 'outbound'>): Record<ConfiguredFigure, string> {
  const resultAmounts = new Set(resultTiers(config.prices).map((tier) => formatUsdcShort(tier.atomic)));
  return {
    resultPrices: `${[...resultAmounts].join(' or ')} USDC`,
    keyMaxUpload: describeSize(config.keyApi.keyDefaults.maxUploadBytes),
    anonymousMaxUpload: describeSize(config.keyApi.anonymous.maxUploadBytes),
    convertWaitSeconds: String(config.keyApi.convertWaitSeconds),
    sourceUrlTimeLimits: `${config.outbound.sourceUrl.timeoutMs / 1000} s in all, and ${config.outbound.sourceUrl.idleTimeoutMs / 1000} s without data`,
  };
}

/** "40 MB" for whole mebibytes (as the spec calls 41943040 bytes 40 MB), the exact byte count otherwise. */
export function describeSize(bytes: number): string {
  return bytes % MIB === 0 ? `${bytes / MIB} MB` : `${bytes} bytes`;
}
