import { OutboundError, OutboundErrorCode } from '@fileshift/outbound';
import { describe, expect, it } from 'vitest';
import { deliveryVerdict } from './delivery-verdict.js';

const refusal = (code: OutboundErrorCode) => ({ error: new OutboundError(code, `the guard says ${code}`) });

describe('what a webhook attempt’s answer means', () => {
  it.each([
    [200, 'delivered'],
    [204, 'delivered'],
    [410, 'disabled'],
    [500, 'retry'],
    [503, 'retry'],
    [408, 'retry'],
    [429, 'retry'],
    [400, 'failed'],
    [401, 'failed'],
    [404, 'failed'],
    [301, 'failed'],
    [307, 'failed'],
    [304, 'failed'],
  ] as const)('HTTP %i → %s', (status, verdict) => {
    const outcome = deliveryVerdict({ status });
    expect(outcome.verdict).toBe(verdict);
    expect(outcome.statusCode).toBe(status);
    expect(outcome.error === null).toBe(verdict === 'delivered');
  });

  it.each([
    [OutboundErrorCode.Timeout, 'retry'],
    [OutboundErrorCode.IdleTimeout, 'retry'],
    [OutboundErrorCode.Unreachable, 'retry'],
    [OutboundErrorCode.BadResponse, 'retry'],
    [OutboundErrorCode.RefusedAddress, 'failed'],
    [OutboundErrorCode.RefusedHost, 'failed'],
    [OutboundErrorCode.RefusedPort, 'failed'],
    [OutboundErrorCode.RefusedScheme, 'failed'],
    [OutboundErrorCode.InvalidUrl, 'failed'],
    [OutboundErrorCode.TooManyRedirects, 'failed'],
    [OutboundErrorCode.TooLarge, 'failed'],
  ] as const)('%s → %s, the guard’s words kept', (code, verdict) => {
    const outcome = deliveryVerdict(refusal(code));
    expect(outcome).toMatchObject({ verdict, statusCode: null });
    expect(outcome.error).toMatch(code === OutboundErrorCode.TooManyRedirects ? /do not follow redirects/ : new RegExp(`the guard says ${code}`));
  });
});
