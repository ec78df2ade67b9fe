import { Module } from '@nestjs/common';
import { SourceFetcher } from './source-fetcher.js';

/** Fetching the files requests name by URL: one fetcher per process, so both APIs share its limit. */
@Module({
  providers: [SourceFetcher],
  exports: [SourceFetcher],
})
export class SourceUrlsModule {}
