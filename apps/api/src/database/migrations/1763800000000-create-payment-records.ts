import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreatePaymentRecords1763800000000 implements MigrationInterface {
  name = 'CreatePaymentRecords1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "payment_records" (
        "id" uuid NOT NULL DEFAULT gen_random_uuid(),
        "endpoint" text NOT NULL,
        "job_id" text,
        "scheme" text NOT NULL,
        "network" text NOT NULL,
        "payer" text,
        "amount_atomic" numeric(78,0) NOT NULL,
        "asset" text NOT NULL,
        "pay_to" text NOT NULL,
        "nonce" text NOT NULL,
        "status" text NOT NULL,
        "tx_hash" text,
        "failure_reason" text,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "settled_at" timestamptz,
        CONSTRAINT "pk_payment_records" PRIMARY KEY ("id"),
        CONSTRAINT "ck_payment_records_status" CHECK ("status" IN ('verified', 'settled', 'failed'))
      )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_payment_records_network_nonce" ON "payment_records" ("network", "nonce")`,
    );
    await queryRunner.query(`CREATE INDEX "ix_payment_records_job_id" ON "payment_records" ("job_id")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "payment_records"`);
  }
}
