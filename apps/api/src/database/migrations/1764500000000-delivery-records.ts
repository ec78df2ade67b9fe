import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a done job delivered (each result file's SHA-256 and size, the engines and versions that made it), and the
 * signed delivery record of its sale: what a buyer can prove it paid for.
 */
export class DeliveryRecords1764500000000 implements MigrationInterface {
  name = 'DeliveryRecords1764500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "conversion_jobs" ADD "result_manifest" jsonb`);
    await queryRunner.query(`ALTER TABLE "x402_result_purchases" ADD "delivery_record" text`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "x402_result_purchases" DROP COLUMN "delivery_record"`);
    await queryRunner.query(`ALTER TABLE "conversion_jobs" DROP COLUMN "result_manifest"`);
  }
}
