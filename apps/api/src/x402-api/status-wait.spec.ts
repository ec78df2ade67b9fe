import { describe, expect, it } from 'vitest';
import { statusWait } from './status-wait.js';

describe('statusWait (pure)', () => {
  it('takes ?wait=N strictly: a whole number of seconds from 0 to 30', () => {
    expect(statusWait('0', undefined)).toEqual({ seconds: 0, preferred: false });
    expect(statusWait('30', 'wait=5')).toEqual({ seconds: 30, preferred: false });
    for (const bad of ['31', '-1', '1.5', '1e1', ' 3', '', '0x1f']) expect(() => statusWait(bad, undefined), bad).toThrow('from 0 to 30');
  });

  it('takes Prefer: wait=N (RFC 7240) as a preference: among others, capped at 30, ignored when malformed or a parameter', () => {
    expect(statusWait(undefined, 'wait=10')).toEqual({ seconds: 10, preferred: true });
    expect(statusWait(undefined, 'respond-async, WAIT = "600"')).toEqual({ seconds: 30, preferred: true });
    expect(statusWait(undefined, 'return=minimal; wait=5')).toEqual({ seconds: 0, preferred: false });
    expect(statusWait(undefined, 'wait=soon')).toEqual({ seconds: 0, preferred: false });
    expect(statusWait(undefined, undefined)).toEqual({ seconds: 0, preferred: false });
  });
});
