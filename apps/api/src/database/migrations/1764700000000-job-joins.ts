import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A job of several files: its members (name, digest, format, plans) and the engine that joins them. */
export class JobJoins1764700000000 implements MigrationInterface {
  name = 'JobJoins1764700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "conversion_jobs" ADD "join_plan" jsonb`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "conversion_jobs" DROP COLUMN "join_plan"`);
  }
}
