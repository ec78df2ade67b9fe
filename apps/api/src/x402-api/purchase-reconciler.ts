import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import { PURCHASE_RESULT_OPERATION } from '../payments/paid-operations.js';
import { PaymentLedgerRepository } from '../payments/payment-ledger.repository.js';
import { repairUnsettled, SETTLE_WINDOW_SECONDS } from '../payments/settlement-repair.js';
import { ResultPurchases } from './result-purchases.repository.js';

/** A purchase is looked at only this long after its last change: the request that made it may be about to end it. */
const GRACE_SECONDS = 10;
const BATCH = 100;

/**
 * Ends result purchases whose request never did (it crashed, or its database blinked after settlement): the ledger
 * decides — settled ones become paid, ones that cannot be settling any more are released. Workers run it on each pass
 * of the job reconciler, through the JobSales port; its changes are conditional, so runs in several workers agree.
 */
@Injectable()
export class PurchaseReconciler {
  private readonly logger = new Logger(PurchaseReconciler.name);
  private readonly reported = new Set<string>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly purchases: ResultPurchases,
    private readonly ledger: PaymentLedgerRepository,
  ) {}

  /** One pass, logged: what it did, or why it failed (the next pass tries again). Never rejects. */
  async pass(): Promise<void> {
    await this.reconcile()
      .then(({ completed, released }) => {
        if (completed + released > 0) this.logger.log(`reconciled result purchases: completed ${completed}, released ${released}`);
      })
      .catch((error: unknown) => this.logger.warn(`reconciling result purchases failed; next try in ${this.config.jobCycle.reconcileIntervalSeconds} s: ${(error as Error).message}`));
  }

  async reconcile(): Promise<{ completed: number; released: number }> {
    const report = { completed: 0, released: 0 };
    for (const purchase of await this.purchases.findStuck(GRACE_SECONDS, BATCH)) {
      const outcome = await this.ledger.outcomeFor(PURCHASE_RESULT_OPERATION, purchase.jobId);
      switch (repairUnsettled(outcome, (Date.now() - purchase.updatedAt.getTime()) / 1000, SETTLE_WINDOW_SECONDS)) {
        case 'complete':
          if (await this.purchases.complete(purchase.jobId)) report.completed++;
          break;
        case 'undo':
          if (await this.purchases.release(purchase.jobId)) report.released++;
          break;
        case 'report':
          if (!this.reported.has(purchase.jobId)) {
            this.reported.add(purchase.jobId);
            this.logger.error(`job ${purchase.jobId}: a result payment was verified but its settlement was never recorded; check the chain (ledger row of ${PURCHASE_RESULT_OPERATION})`);
          }
          break;
        case 'leave':
      }
    }
    return report;
  }
}
