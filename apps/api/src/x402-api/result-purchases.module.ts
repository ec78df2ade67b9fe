import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ResultPurchase } from './result-purchase.entity.js';
import { ResultPurchases } from './result-purchases.repository.js';

/** The x402 API's result purchases (HTTP role). */
@Module({
  imports: [TypeOrmModule.forFeature([ResultPurchase])],
  providers: [ResultPurchases],
  exports: [ResultPurchases],
})
export class ResultPurchasesModule {}
