import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKey } from './api-key.entity.js';
import { ApiKeysRepository } from './api-keys.repository.js';

@Module({
  imports: [TypeOrmModule.forFeature([ApiKey])],
  providers: [ApiKeysRepository],
  exports: [ApiKeysRepository],
})
export class ApiKeysModule {}
