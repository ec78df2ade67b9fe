import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Leases and run counts for jobs, the awaiting_payment status, and the deployment's identity. */
export class JobLeasesAndDeployment1764100000000 implements MigrationInterface {
  name = 'JobLeasesAndDeployment1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE "conversion_jobs"
        ADD COLUMN "lease_owner" text,
        ADD COLUMN "lease_expires_at" timestamptz,
        ADD COLUMN "attempts" integer NOT NULL DEFAULT 0`);
    await queryRunner.query(`ALTER TABLE "conversion_jobs" DROP CONSTRAINT "ck_conversion_jobs_status"`);
    await queryRunner.query(`
      ALTER TABLE "conversion_jobs" ADD CONSTRAINT "ck_conversion_jobs_status"
        CHECK ("status" IN ('awaiting_payment', 'queued', 'processing', 'done', 'failed'))`);
    await queryRunner.query(`
      CREATE INDEX "ix_conversion_jobs_unfinished" ON "conversion_jobs" ("status", "updated_at")
        WHERE "status" IN ('awaiting_payment', 'queued', 'processing')`);
    await queryRunner.query(`CREATE INDEX "ix_conversion_jobs_result_buying" ON "conversion_jobs" ("updated_at") WHERE "result_purchase" = 'buying'`);
    await queryRunner.query(`
      CREATE TABLE "deployment_identity" (
        "singleton" boolean NOT NULL DEFAULT true,
        "id" uuid NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "pk_deployment_identity" PRIMARY KEY ("singleton"),
        CONSTRAINT "ck_deployment_identity_singleton" CHECK ("singleton")
      )`);
    await queryRunner.query(`INSERT INTO "deployment_identity" ("id") VALUES (gen_random_uuid())`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "deployment_identity"`);
    await queryRunner.query(`DROP INDEX "ix_conversion_jobs_result_buying"`);
    await queryRunner.query(`DROP INDEX "ix_conversion_jobs_unfinished"`);
    await queryRunner.query(`DELETE FROM "conversion_jobs" WHERE "status" = 'awaiting_payment'`);
    await queryRunner.query(`ALTER TABLE "conversion_jobs" DROP CONSTRAINT "ck_conversion_jobs_status"`);
    await queryRunner.query(`ALTER TABLE "conversion_jobs" ADD CONSTRAINT "ck_conversion_jobs_status" CHECK ("status" IN ('queued', 'processing', 'done', 'failed'))`);
    await queryRunner.query(`ALTER TABLE "conversion_jobs" DROP COLUMN "attempts", DROP COLUMN "lease_expires_at", DROP COLUMN "lease_owner"`);
  }
}
