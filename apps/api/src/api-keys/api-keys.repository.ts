import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, type Repository } from 'typeorm';
import { generateApiKeySecret, hashApiKeySecret, shownPrefixOf } from './api-key-secret.js';
import { ApiKey } from './api-key.entity.js';
import type { KeyApiLimits } from '../config/key-api-limits.js';

/** The API keys in PostgreSQL; secrets exist only in the value `create` returns. */
@Injectable()
export class ApiKeysRepository {
  constructor(@InjectRepository(ApiKey) private readonly keys: Repository<ApiKey>) {}

  async create(name: string, limits: KeyApiLimits): Promise<{ key: ApiKey; secret: string }> {
    const secret = generateApiKeySecret();
    const key = await this.keys.save(
      this.keys.create({ id: randomUUID(), name, keyPrefix: shownPrefixOf(secret), keyHash: hashApiKeySecret(secret), ...limits, revokedAt: null }),
    );
    return { key, secret };
  }

  /** The key a secret belongs to, revoked or not (the caller tells the two apart). */
  findBySecret(secret: string): Promise<ApiKey | null> {
    return this.keys.findOneBy({ keyHash: hashApiKeySecret(secret) });
  }

  list(): Promise<ApiKey[]> {
    return this.keys.find({ order: { createdAt: 'ASC' } });
  }

  /** Revokes by id or shown prefix; the keys revoked now (none when unknown or already revoked). */
  async revoke(idOrPrefix: string): Promise<ApiKey[]> {
    const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(idOrPrefix);
    const matches = await this.keys.findBy(isUuid ? { id: idOrPrefix, revokedAt: IsNull() } : { keyPrefix: idOrPrefix, revokedAt: IsNull() });
    if (matches.length > 1) throw new Error(`${matches.length} keys start with ${idOrPrefix}; revoke by id`);
    for (const key of matches) await this.keys.update({ id: key.id }, { revokedAt: new Date() });
    return matches;
  }
}
