import { describe, expect, it } from 'vitest';
import { CREATE_JOB_OPERATION, DETECT_FILE_TYPE_OPERATION, PURCHASE_RESULT_OPERATION } from './paid-operations.js';
import { settlementKindOf } from './settlement-kind.js';

describe('settlementKindOf', () => {
  it('names each paid operation by what it charges for', () => {
    expect(settlementKindOf(DETECT_FILE_TYPE_OPERATION)).toBe('detection_fee');
    expect(settlementKindOf(CREATE_JOB_OPERATION)).toBe('job_fee');
    expect(settlementKindOf(PURCHASE_RESULT_OPERATION)).toBe('result');
  });

  it('counts an unnamed route, or a name of Object.prototype, as other', () => {
    expect(settlementKindOf('someNewPaidRoute')).toBe('other');
    expect(settlementKindOf('constructor')).toBe('other');
  });
});
