/** What to do with a job whose creation was paid for but that was never marked charged. */
export type UnchargedJobRepair = 'complete' | 'undo' | 'leave' | 'report';

/**
 * What the end of a sold job needs of the API that sold it, which the core does not know: the payment ledger's word on
 * a job's creation, and the sold results (result purchases whose request never ended). The core owns this port; the
 * x402 API implements it and provides it under JOB_SALES, and the composition root (app.module.ts) hands that module
 * to the worker, so the worker never imports an API.
 */
export interface JobSales {
  /**
   * What the ledger says to do with a job left awaiting payment for `ageSeconds`: complete it (the payment settled),
   * undo it (it failed or never came, and no request can still be settling it), leave it (one may still be), or report
   * it (verified but never settled: only the chain knows).
   */
  repairUncharged(jobId: string, ageSeconds: number): Promise<UnchargedJobRepair>;
  /** Where an operator finds a reported job's payment (the ledger's name for it). */
  readonly creationPaymentEntry: string;
  /** Brings sold results whose purchase request never ended to an end; logs what it did or what failed, and never rejects. */
  reconcileSoldResults(): Promise<void>;
}

/** The injection token of the JobSales port. */
export const JOB_SALES = Symbol('JobSales');
