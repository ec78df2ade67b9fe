import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type PaymentLedger, PaymentReplayError, type SettledPayment, type VerifiedPaymentRecord } from '@fileshift/x402-nest';
import { QueryFailedError, type Repository } from 'typeorm';
import { PaymentRecord } from './payment-record.entity.js';

const UNIQUE_VIOLATION = '23505';

/** The payment ledger in PostgreSQL. A second record of the same nonce on a network is a replay. */
@Injectable()
export class PaymentLedgerRepository implements PaymentLedger {
  constructor(@InjectRepository(PaymentRecord) private readonly records: Repository<PaymentRecord>) {}

  async wasPresented(network: string, nonce: string): Promise<boolean> {
    return this.records.exists({ where: { network, nonce } });
  }

  async recordVerified(record: VerifiedPaymentRecord): Promise<string> {
    try {
      const saved = await this.records.save(
        this.records.create({
          endpoint: record.endpoint,
          jobId: record.reference,
          scheme: record.scheme,
          network: record.network,
          payer: record.payer,
          amountAtomic: record.amountAtomic,
          asset: record.asset,
          payTo: record.payTo,
          nonce: record.nonce,
          status: 'verified',
        }),
      );
      return saved.id;
    } catch (error) {
      if (error instanceof QueryFailedError && (error.driverError as { code?: string }).code === UNIQUE_VIOLATION) {
        throw new PaymentReplayError(record.nonce);
      }
      throw error;
    }
  }

  async recordSettled(id: string, settlement: SettledPayment): Promise<void> {
    await this.records.update({ id }, { status: 'settled', txHash: settlement.txHash, payer: settlement.payer, settledAt: settlement.settledAt });
  }

  async recordFailed(id: string, reason: string): Promise<void> {
    await this.records.update({ id }, { status: 'failed', failureReason: reason.slice(0, 500) });
  }
}
