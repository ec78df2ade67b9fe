import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { ResultPurchase } from './result-purchase.entity.js';

/** The x402 API's result purchases. Each change is conditional on the state it comes from: the affected row count decides. */
@Injectable()
export class ResultPurchases {
  constructor(@InjectRepository(ResultPurchase) private readonly purchases: Repository<ResultPurchase>) {}

  find(jobId: string): Promise<ResultPurchase | null> {
    return this.purchases.findOneBy({ jobId });
  }

  findByDownloadToken(token: string): Promise<ResultPurchase | null> {
    return this.purchases.findOneBy({ downloadToken: token });
  }

  /** Claims the purchase of a done job's result; false when another purchase is settling or done (or the job is gone). */
  async claim(jobId: string): Promise<boolean> {
    const inserted = (await this.purchases.query(
      `INSERT INTO x402_result_purchases (job_id, state) SELECT id, 'buying' FROM conversion_jobs WHERE id = $1 AND status = 'done'
       ON CONFLICT (job_id) DO NOTHING RETURNING job_id`,
      [jobId],
    )) as unknown[];
    return inserted.length > 0;
  }

  /** A purchase whose settlement the ledger shows, though the request that made it never recorded it. */
  async complete(jobId: string): Promise<boolean> {
    return this.changed(this.purchases.createQueryBuilder().update().set({ state: 'paid' }).where("job_id = :jobId AND state = 'buying'", { jobId }));
  }

  /** A purchase that did not settle: the result can be bought again. */
  async release(jobId: string): Promise<boolean> {
    return this.changed(this.purchases.createQueryBuilder().delete().where("job_id = :jobId AND state = 'buying'", { jobId }));
  }

  /**
   * The result is paid for; the download URL given out with it, and its delivery record unless it has one: the record
   * kept is returned, so every later download carries the first one signed.
   */
  async markPaid(jobId: string, download: { token: string; expiresAt: Date; deliveryRecord: string | null }): Promise<string | null> {
    const rows = (await this.purchases.query(
      `UPDATE x402_result_purchases SET state = 'paid', download_token = $2, download_expires_at = $3, delivery_record = COALESCE(delivery_record, $4), updated_at = now()
       WHERE job_id = $1 RETURNING delivery_record`,
      [jobId, download.token, download.expiresAt, download.deliveryRecord],
    )) as [Array<{ delivery_record: string | null }>, number];
    return rows[0][0]?.delivery_record ?? null;
  }

  /** Purchases that started more than `graceSeconds` ago and never ended. */
  findStuck(graceSeconds: number, limit: number): Promise<ResultPurchase[]> {
    return this.purchases
      .createQueryBuilder('purchase')
      .where("purchase.state = 'buying'")
      .andWhere('purchase.updated_at < now() - make_interval(secs => :graceSeconds)', { graceSeconds })
      .take(limit)
      .getMany();
  }

  private async changed(query: { execute(): Promise<{ affected?: number | null }> }): Promise<boolean> {
    return ((await query.execute()).affected ?? 0) > 0;
  }
}
