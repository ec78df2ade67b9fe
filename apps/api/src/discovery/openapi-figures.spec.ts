import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/app-config.js';
import { CONFIGURED, fillConfiguredFigures } from '../http-kit/configured-figures.js';
import { describeSize, openApiFigures } from './openapi-figures.js';

function config(env: Record<string, string> = {}) {
  const loaded = loadConfig(env, '0.0.0-test');
  if (!loaded.ok) throw new Error(loaded.problems.join('; '));
  return loaded.config;
}

describe('openApiFigures: the configured figures the OpenAPI text names', () => {
  it('writes the defaults as the text has always said them', () => {
    expect(openApiFigures(config())).toEqual({ resultPrices: '0.02 or 0.04 USDC', keyMaxUpload: '40 MB', anonymousMaxUpload: '5 MB', convertWaitSeconds: '120', sourceUrlTimeLimits: '60 s in all, and 15 s without data' });
  });

  it('follows the configuration', () => {
    const figures = openApiFigures(config({ PRICE_RESULT_STANDARD_ATOMIC: '1500000', PRICE_RESULT_LARGE_ATOMIC: '1500000', KEY_API_ANONYMOUS_MAX_UPLOAD_BYTES: '1000000' }));
    expect(figures.resultPrices).toBe('1.5 USDC');
    expect(figures.anonymousMaxUpload).toBe('1000000 bytes');
    expect(describeSize(3 * 1024 * 1024)).toBe('3 MB');
  });
});

describe('fillConfiguredFigures', () => {
  const figures = { resultPrices: '0.05 or 0.07 USDC', keyMaxUpload: '30 MB', anonymousMaxUpload: '3 MB', convertWaitSeconds: '90', sourceUrlTimeLimits: '60 s in all, and 15 s without data' };

  it('fills every placeholder in every string of a document, leaving the rest as it was', () => {
    const document = { paths: { '/a/{id}': { get: { summary: `Buy (${CONFIGURED.resultPrices}).`, tags: [`${CONFIGURED.anonymousMaxUpload} or ${CONFIGURED.keyMaxUpload}`], deprecated: false, minimum: 1 } } } };
    expect(fillConfiguredFigures(document, figures)).toEqual({ paths: { '/a/{id}': { get: { summary: 'Buy (0.05 or 0.07 USDC).', tags: ['3 MB or 30 MB'], deprecated: false, minimum: 1 } } } });
  });

  it('refuses a placeholder that names no figure', () => {
    expect(() => fillConfiguredFigures({ summary: 'up to {{uploadLimit}}' }, figures)).toThrow(/\{\{uploadLimit\}\}/);
  });
});
