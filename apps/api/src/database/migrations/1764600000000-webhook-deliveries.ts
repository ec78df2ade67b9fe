import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A job's webhook: where its end is announced, and how the delivery of that event went. Removed with its job. */
export class WebhookDeliveries1764600000000 implements MigrationInterface {
  name = 'WebhookDeliveries1764600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "webhook_deliveries" (
        "job_id" text NOT NULL,
        "url" text NOT NULL,
        "service_url" text NOT NULL,
        "state" text NOT NULL DEFAULT 'pending',
        "attempts" integer NOT NULL DEFAULT 0,
        "last_attempt_at" timestamptz,
        "last_status_code" integer,
        "last_error" text,
        "delivered_at" timestamptz,
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "pk_webhook_deliveries" PRIMARY KEY ("job_id"),
        CONSTRAINT "ck_webhook_deliveries_state" CHECK ("state" IN ('pending', 'delivering', 'delivered', 'failed', 'disabled')),
        CONSTRAINT "fk_webhook_deliveries_job_id" FOREIGN KEY ("job_id") REFERENCES "conversion_jobs" ("id") ON DELETE CASCADE
      )`);
    await queryRunner.query(`ALTER TABLE "conversion_jobs" ADD "has_webhook" boolean NOT NULL DEFAULT false`);
    // The reconciler's look for events of ended jobs not yet delivered.
    await queryRunner.query(`CREATE INDEX "ix_webhook_deliveries_unsent" ON "webhook_deliveries" ("updated_at") WHERE "state" IN ('pending', 'delivering')`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "webhook_deliveries"`);
    await queryRunner.query(`ALTER TABLE "conversion_jobs" DROP COLUMN "has_webhook"`);
  }
}
