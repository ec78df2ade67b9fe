import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Each job records its plan, its options, its engine class (queue) and how many files it wrote. */
export class ConversionPlans1764200000000 implements MigrationInterface {
  name = 'ConversionPlans1764200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE "conversion_jobs"
        ADD COLUMN "plan" jsonb,
        ADD COLUMN "options" jsonb NOT NULL DEFAULT '{}',
        ADD COLUMN "engine_class" text,
        ADD COLUMN "result_count" integer`);
    // Existing jobs got {}; new ones always say their options.
    await queryRunner.query(`ALTER TABLE "conversion_jobs" ALTER COLUMN "options" DROP DEFAULT`);
    await queryRunner.query(`UPDATE "conversion_jobs" SET "result_count" = 1 WHERE "status" = 'done'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "conversion_jobs" DROP COLUMN "result_count", DROP COLUMN "engine_class", DROP COLUMN "options", DROP COLUMN "plan"`);
  }
}
