import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateKeyApiTables1764000000000 implements MigrationInterface {
  name = 'CreateKeyApiTables1764000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "api_keys" (
        "id" uuid NOT NULL,
        "name" text NOT NULL,
        "key_prefix" text NOT NULL,
        "key_hash" text NOT NULL,
        "requests_per_minute" integer NOT NULL,
        "daily_quota" integer NOT NULL,
        "max_upload_bytes" bigint NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "revoked_at" timestamptz,
        CONSTRAINT "pk_api_keys" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_api_keys_key_hash" ON "api_keys" ("key_hash")`);
    await queryRunner.query(`
      CREATE TABLE "key_api_uploads" (
        "filename" text NOT NULL,
        "api_key_id" uuid,
        "original_filename" text NOT NULL,
        "size_bytes" bigint NOT NULL,
        "sha256" text NOT NULL,
        "head" bytea NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "expires_at" timestamptz NOT NULL,
        CONSTRAINT "pk_key_api_uploads" PRIMARY KEY ("filename")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_key_api_uploads_expires_at" ON "key_api_uploads" ("expires_at")`);
    await queryRunner.query(`ALTER TABLE "conversion_jobs" ADD "origin" text NOT NULL DEFAULT 'x402'`);
    await queryRunner.query(`ALTER TABLE "conversion_jobs" ADD "api_key_id" uuid`);
    await queryRunner.query(`ALTER TABLE "conversion_jobs" ADD CONSTRAINT "ck_conversion_jobs_origin" CHECK ("origin" IN ('x402', 'key_api'))`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "conversion_jobs" DROP CONSTRAINT "ck_conversion_jobs_origin"`);
    await queryRunner.query(`ALTER TABLE "conversion_jobs" DROP COLUMN "api_key_id"`);
    await queryRunner.query(`ALTER TABLE "conversion_jobs" DROP COLUMN "origin"`);
    await queryRunner.query(`DROP TABLE "key_api_uploads"`);
    await queryRunner.query(`DROP TABLE "api_keys"`);
  }
}
