import type { SettlementKind } from '../metrics/service-metrics.js';
import { CREATE_JOB_OPERATION, DETECT_FILE_TYPE_OPERATION, PURCHASE_RESULT_OPERATION } from './paid-operations.js';

const KIND_OF_OPERATION: Readonly<Record<string, SettlementKind>> = {
  [DETECT_FILE_TYPE_OPERATION]: 'detection_fee',
  [CREATE_JOB_OPERATION]: 'job_fee',
  [PURCHASE_RESULT_OPERATION]: 'result',
};

/** What a settlement of a paid route charged for; a route added later counts as `other` until it is named here. */
export function settlementKindOf(operation: string): SettlementKind {
  return Object.hasOwn(KIND_OF_OPERATION, operation) ? KIND_OF_OPERATION[operation]! : 'other';
}
