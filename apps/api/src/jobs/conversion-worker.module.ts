import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ConversionGraphModule } from '../conversion/conversion-graph.module.js';
import { ConversionJob } from './conversion-job.entity.js';
import { ConversionJobsRepository } from './conversion-jobs.repository.js';
import { ConvertFileJob } from './convert-file.job.js';

/** The conversion job handler (worker role). */
@Module({
  imports: [TypeOrmModule.forFeature([ConversionJob]), ConversionGraphModule],
  providers: [ConversionJobsRepository, ConvertFileJob],
})
export class ConversionWorkerModule {}
