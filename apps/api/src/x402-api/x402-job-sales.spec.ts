import { describe, expect, it } from 'vitest';
import type { AppConfig } from '../config/app-config.js';
import type { PaymentLedgerRepository } from '../payments/payment-ledger.repository.js';
import { SETTLE_WINDOW_SECONDS } from '../payments/settlement-repair.js';
import { PurchaseReconciler } from './purchase-reconciler.js';
import type { ResultPurchases } from './result-purchases.repository.js';
import { X402JobSales } from './x402-job-sales.js';

type Outcome = Awaited<ReturnType<PaymentLedgerRepository['outcomeFor']>>;

/** A ledger that answers `outcome` for every payment and remembers what it was asked. */
function ledgerAnswering(outcome: Outcome) {
  const asked: Array<[string, string]> = [];
  const ledger = {
    outcomeFor: async (endpoint: string, jobId: string) => {
      asked.push([endpoint, jobId]);
      return outcome;
    },
  } as unknown as PaymentLedgerRepository;
  return { ledger, asked };
}

const CONFIG = { jobCycle: { reconcileIntervalSeconds: 5 } } as AppConfig;

describe('X402JobSales (the x402 API behind the core\'s JobSales port)', () => {
  it('asks the ledger about the payment that created the job, under the operation it names in reports', async () => {
    const { ledger, asked } = ledgerAnswering('settled');
    const sales = new X402JobSales(ledger, {} as PurchaseReconciler);
    expect(await sales.repairUncharged('job-1', 5)).toBe('complete');
    expect(asked).toEqual([['createConversionJob', 'job-1']]);
    expect(sales.creationPaymentEntry).toBe('createConversionJob');
  });

  it('leaves a verified fee while a request may still settle it, then reports it; undoes a missing one once the window passed', async () => {
    const verified = new X402JobSales(ledgerAnswering('verified').ledger, {} as PurchaseReconciler);
    expect(await verified.repairUncharged('job-1', SETTLE_WINDOW_SECONDS - 1)).toBe('leave');
    expect(await verified.repairUncharged('job-1', SETTLE_WINDOW_SECONDS + 1)).toBe('report');
    const missing = new X402JobSales(ledgerAnswering('none').ledger, {} as PurchaseReconciler);
    expect(await missing.repairUncharged('job-1', SETTLE_WINDOW_SECONDS + 1)).toBe('undo');
  });

  it('reconciles sold results: a settled purchase left buying becomes paid', async () => {
    const completed: string[] = [];
    const purchases = {
      findStuck: async () => [{ jobId: 'job-2', updatedAt: new Date(Date.now() - 60_000) }],
      complete: async (jobId: string) => completed.push(jobId) > 0,
      release: async () => false,
    } as unknown as ResultPurchases;
    const { ledger, asked } = ledgerAnswering('settled');
    await new X402JobSales(ledger, new PurchaseReconciler(CONFIG, purchases, ledger)).reconcileSoldResults();
    expect(asked).toEqual([['purchaseConversionResult', 'job-2']]);
    expect(completed).toEqual(['job-2']);
  });

  it('does not reject when the purchases cannot be read: the next pass tries again', async () => {
    const purchases = {
      findStuck: async () => {
        throw new Error('database unreachable');
      },
    } as unknown as ResultPurchases;
    const { ledger } = ledgerAnswering('settled');
    await expect(new X402JobSales(ledger, new PurchaseReconciler(CONFIG, purchases, ledger)).reconcileSoldResults()).resolves.toBeUndefined();
  });
});
