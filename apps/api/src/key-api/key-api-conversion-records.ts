import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { newDownloadToken } from '../http-kit/download-name.js';
import { KeyApiConversion } from './key-api-conversion.entity.js';

/** The key API's records of its conversions. */
@Injectable()
export class KeyApiConversionRecords {
  constructor(@InjectRepository(KeyApiConversion) private readonly records: Repository<KeyApiConversion>) {}

  /** The job's record, made on first sight (a request that found its job already started sees the same name). */
  async recordFor(jobId: string, apiKeyId: string | null): Promise<KeyApiConversion> {
    await this.records
      .createQueryBuilder()
      .insert()
      .values({ jobId, apiKeyId, downloadToken: newDownloadToken() })
      .orIgnore()
      .execute();
    return (await this.records.findOneBy({ jobId }))!;
  }

  findByDownloadToken(token: string): Promise<KeyApiConversion | null> {
    return this.records.findOneBy({ downloadToken: token });
  }
}
