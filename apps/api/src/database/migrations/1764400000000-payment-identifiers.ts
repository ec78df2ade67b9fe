import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A payment may carry an identifier (x402 `payment-identifier`): held by one payment at a time until that payment
 * fails, with what its request was, so a repeated request is answered from the first payment.
 */
export class PaymentIdentifiers1764400000000 implements MigrationInterface {
  name = 'PaymentIdentifiers1764400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "payment_records" ADD "payment_id" text, ADD "request_fingerprint" text`);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_payment_records_payment_id" ON "payment_records" ("payment_id") WHERE "payment_id" IS NOT NULL AND "status" <> 'failed'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "uq_payment_records_payment_id"`);
    await queryRunner.query(`ALTER TABLE "payment_records" DROP COLUMN "request_fingerprint", DROP COLUMN "payment_id"`);
  }
}
