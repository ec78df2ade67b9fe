import { Module } from '@nestjs/common';
import { ConversionGraphModule } from '../conversion/conversion-graph.module.js';
import { ConvertFileJob } from './convert-file.job.js';
import { JobRecordsModule } from './job-records.module.js';

/** The conversion job handler (worker role). */
@Module({
  imports: [JobRecordsModule, ConversionGraphModule],
  providers: [ConvertFileJob],
})
export class ConversionWorkerModule {}
