import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateConversionJobs1763900000000 implements MigrationInterface {
  name = 'CreateConversionJobs1763900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "conversion_jobs" (
        "id" text NOT NULL,
        "status" text NOT NULL,
        "progress_percent" integer NOT NULL DEFAULT 0,
        "original_filename" text NOT NULL,
        "file_created_at" timestamptz NOT NULL,
        "input_size_bytes" bigint NOT NULL,
        "input_sha256" text NOT NULL,
        "detected_input_format" text NOT NULL,
        "target_format" text NOT NULL,
        "result_size_bytes" bigint,
        "failure_type" text,
        "failure_message" text,
        "idempotency_key" text,
        "request_fingerprint" text NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        "finished_at" timestamptz,
        "result_purchase" text,
        "download_token" text,
        "download_expires_at" timestamptz,
        "expires_at" timestamptz NOT NULL,
        CONSTRAINT "pk_conversion_jobs" PRIMARY KEY ("id"),
        CONSTRAINT "ck_conversion_jobs_status" CHECK ("status" IN ('queued', 'processing', 'done', 'failed')),
        CONSTRAINT "ck_conversion_jobs_result_purchase" CHECK ("result_purchase" IN ('buying', 'paid'))
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_conversion_jobs_idempotency_key" ON "conversion_jobs" ("idempotency_key")`);
    await queryRunner.query(`CREATE INDEX "ix_conversion_jobs_expires_at" ON "conversion_jobs" ("expires_at")`);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_conversion_jobs_download_token" ON "conversion_jobs" ("download_token")`);
    await queryRunner.query(`
      CREATE TABLE "job_tombstones" (
        "job_id" text NOT NULL,
        "reason" text NOT NULL,
        "removed_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "pk_job_tombstones" PRIMARY KEY ("job_id"),
        CONSTRAINT "ck_job_tombstones_reason" CHECK ("reason" IN ('deleted', 'expired'))
      )`);
    await queryRunner.query(`CREATE INDEX "ix_job_tombstones_removed_at" ON "job_tombstones" ("removed_at")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "job_tombstones"`);
    await queryRunner.query(`DROP TABLE "conversion_jobs"`);
  }
}
