import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A job's run lease, its x402 result purchase and its key API download name move to records of their own (removed
 * with the job); a job says how it delivers several files, keeps its fallback plans, and is de-duplicated by a key
 * within its API. Unfinished jobs of versions that did not plan are failed: no worker can run them now.
 */
export class JobRecordsApart1764300000000 implements MigrationInterface {
  name = 'JobRecordsApart1764300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "job_leases" (
        "job_id" text NOT NULL,
        "owner" text,
        "expires_at" timestamptz,
        "runs" integer NOT NULL DEFAULT 0,
        CONSTRAINT "pk_job_leases" PRIMARY KEY ("job_id"),
        CONSTRAINT "fk_job_leases_job_id" FOREIGN KEY ("job_id") REFERENCES "conversion_jobs" ("id") ON DELETE CASCADE
      )`);
    await queryRunner.query(`
      INSERT INTO "job_leases" ("job_id", "owner", "expires_at", "runs")
        SELECT "id", "lease_owner", "lease_expires_at", "attempts" FROM "conversion_jobs" WHERE "attempts" > 0 OR "lease_owner" IS NOT NULL`);

    await queryRunner.query(`
      CREATE TABLE "x402_result_purchases" (
        "job_id" text NOT NULL,
        "state" text NOT NULL,
        "download_token" text,
        "download_expires_at" timestamptz,
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "pk_x402_result_purchases" PRIMARY KEY ("job_id"),
        CONSTRAINT "ck_x402_result_purchases_state" CHECK ("state" IN ('buying', 'paid')),
        CONSTRAINT "fk_x402_result_purchases_job_id" FOREIGN KEY ("job_id") REFERENCES "conversion_jobs" ("id") ON DELETE CASCADE
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_x402_result_purchases_download_token" ON "x402_result_purchases" ("download_token")`);
    await queryRunner.query(`CREATE INDEX "ix_x402_result_purchases_buying" ON "x402_result_purchases" ("updated_at") WHERE "state" = 'buying'`);
    await queryRunner.query(`
      INSERT INTO "x402_result_purchases" ("job_id", "state", "download_token", "download_expires_at", "updated_at")
        SELECT "id", "result_purchase", "download_token", "download_expires_at", "updated_at" FROM "conversion_jobs"
        WHERE "origin" = 'x402' AND "result_purchase" IS NOT NULL`);

    await queryRunner.query(`
      CREATE TABLE "key_api_conversions" (
        "job_id" text NOT NULL,
        "api_key_id" uuid,
        "download_token" text NOT NULL,
        CONSTRAINT "pk_key_api_conversions" PRIMARY KEY ("job_id"),
        CONSTRAINT "fk_key_api_conversions_job_id" FOREIGN KEY ("job_id") REFERENCES "conversion_jobs" ("id") ON DELETE CASCADE
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_key_api_conversions_download_token" ON "key_api_conversions" ("download_token")`);
    await queryRunner.query(`
      INSERT INTO "key_api_conversions" ("job_id", "api_key_id", "download_token")
        SELECT "id", "api_key_id", "download_token" FROM "conversion_jobs" WHERE "origin" = 'key_api' AND "download_token" IS NOT NULL`);

    await queryRunner.query(`
      ALTER TABLE "conversion_jobs"
        ADD COLUMN "delivery" text NOT NULL DEFAULT 'parts',
        ADD COLUMN "fallback_plans" jsonb NOT NULL DEFAULT '[]'`);
    await queryRunner.query(`UPDATE "conversion_jobs" SET "delivery" = 'bundle' WHERE "origin" = 'x402'`);
    await queryRunner.query(`ALTER TABLE "conversion_jobs" ALTER COLUMN "delivery" DROP DEFAULT, ALTER COLUMN "fallback_plans" DROP DEFAULT`);
    await queryRunner.query(`ALTER TABLE "conversion_jobs" ADD CONSTRAINT "ck_conversion_jobs_delivery" CHECK ("delivery" IN ('bundle', 'parts'))`);

    // The key API's key was "key-api <upload> <target>[ <options>]" in the Idempotency-Key column; now [upload, target, options] in its own scope.
    await queryRunner.query(`DROP INDEX "uq_conversion_jobs_idempotency_key"`);
    await queryRunner.query(`ALTER TABLE "conversion_jobs" RENAME COLUMN "idempotency_key" TO "dedupe_key"`);
    await queryRunner.query(`
      UPDATE "conversion_jobs" SET "dedupe_key" = '[' || to_json(split_part("dedupe_key", ' ', 2))::text || ',' || to_json(split_part("dedupe_key", ' ', 3))::text || ','
          || to_json(COALESCE(NULLIF(substring("dedupe_key" FROM '^key-api [^ ]+ [^ ]+ (.*)$'), ''), '{}'))::text || ']'
        WHERE "origin" = 'key_api' AND "dedupe_key" LIKE 'key-api %'`);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_conversion_jobs_dedupe_key" ON "conversion_jobs" ("origin", "dedupe_key")`);

    await queryRunner.query(`
      UPDATE "conversion_jobs" SET "status" = 'failed', "failure_type" = 'provider_error',
          "failure_message" = 'The service was upgraded while this conversion waited; convert the file again.', "finished_at" = now()
        WHERE "plan" IS NULL AND "status" IN ('queued', 'processing')`);

    await queryRunner.query(`DROP INDEX "ix_conversion_jobs_result_buying"`);
    await queryRunner.query(`DROP INDEX "uq_conversion_jobs_download_token"`);
    await queryRunner.query(`ALTER TABLE "conversion_jobs" DROP CONSTRAINT "ck_conversion_jobs_result_purchase"`);
    await queryRunner.query(`
      ALTER TABLE "conversion_jobs"
        DROP COLUMN "result_purchase", DROP COLUMN "download_token", DROP COLUMN "download_expires_at",
        DROP COLUMN "lease_owner", DROP COLUMN "lease_expires_at", DROP COLUMN "attempts", DROP COLUMN "api_key_id"`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE "conversion_jobs"
        ADD COLUMN "result_purchase" text, ADD COLUMN "download_token" text, ADD COLUMN "download_expires_at" timestamptz,
        ADD COLUMN "lease_owner" text, ADD COLUMN "lease_expires_at" timestamptz, ADD COLUMN "attempts" integer NOT NULL DEFAULT 0,
        ADD COLUMN "api_key_id" uuid`);
    await queryRunner.query(`ALTER TABLE "conversion_jobs" ADD CONSTRAINT "ck_conversion_jobs_result_purchase" CHECK ("result_purchase" IN ('buying', 'paid'))`);
    await queryRunner.query(`
      UPDATE "conversion_jobs" j SET "lease_owner" = l."owner", "lease_expires_at" = l."expires_at", "attempts" = l."runs" FROM "job_leases" l WHERE l."job_id" = j."id"`);
    await queryRunner.query(`
      UPDATE "conversion_jobs" j SET "result_purchase" = p."state", "download_token" = p."download_token", "download_expires_at" = p."download_expires_at"
        FROM "x402_result_purchases" p WHERE p."job_id" = j."id"`);
    await queryRunner.query(`
      UPDATE "conversion_jobs" j SET "download_token" = k."download_token", "download_expires_at" = j."expires_at", "api_key_id" = k."api_key_id"
        FROM "key_api_conversions" k WHERE k."job_id" = j."id"`);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_conversion_jobs_download_token" ON "conversion_jobs" ("download_token")`);
    await queryRunner.query(`CREATE INDEX "ix_conversion_jobs_result_buying" ON "conversion_jobs" ("updated_at") WHERE "result_purchase" = 'buying'`);
    await queryRunner.query(`DROP INDEX "uq_conversion_jobs_dedupe_key"`);
    await queryRunner.query(`
      UPDATE "conversion_jobs" SET "dedupe_key" = 'key-api ' || ("dedupe_key"::jsonb ->> 0) || ' ' || ("dedupe_key"::jsonb ->> 1)
          || CASE WHEN ("dedupe_key"::jsonb ->> 2) = '{}' THEN '' ELSE ' ' || ("dedupe_key"::jsonb ->> 2) END
        WHERE "origin" = 'key_api' AND "dedupe_key" IS NOT NULL`);
    await queryRunner.query(`ALTER TABLE "conversion_jobs" RENAME COLUMN "dedupe_key" TO "idempotency_key"`);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_conversion_jobs_idempotency_key" ON "conversion_jobs" ("idempotency_key")`);
    await queryRunner.query(`ALTER TABLE "conversion_jobs" DROP CONSTRAINT "ck_conversion_jobs_delivery"`);
    await queryRunner.query(`ALTER TABLE "conversion_jobs" DROP COLUMN "fallback_plans", DROP COLUMN "delivery"`);
    await queryRunner.query(`DROP TABLE "key_api_conversions"`);
    await queryRunner.query(`DROP TABLE "x402_result_purchases"`);
    await queryRunner.query(`DROP TABLE "job_leases"`);
  }
}
