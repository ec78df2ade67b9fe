import { expect } from 'vitest';
import { OutboundError, type OutboundErrorCode } from '../../src/outbound-error.js';

/** Awaits a request that must fail with `code`; answers the error for further checks. */
export async function expectRefused(request: Promise<unknown>, code: OutboundErrorCode): Promise<OutboundError> {
  const error = await request.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(OutboundError);
  expect({ code: (error as OutboundError).code, message: (error as OutboundError).message }).toMatchObject({ code });
  return error as OutboundError;
}
