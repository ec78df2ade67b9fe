import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { extensionOf } from '@fileshift/formats';
import { LessThanOrEqual, type Repository } from 'typeorm';
import { FILE_STORAGE, type FileStorage } from '../storage/file-storage.js';
import type { Upload } from '../jobs/upload-reader.js';
import { KeyApiUpload } from './key-api-upload.entity.js';

export const KEY_API_FILE_RETENTION_MS = 24 * 3600 * 1000;
/** 32 random characters (192 bits), then the client's extension so the name stays readable. */
export const UPLOAD_FILENAME = /^[A-Za-z0-9_-]{32}(\.[a-z0-9]{1,10})?$/;

const storageKeyOf = (filename: string) => `key-api/uploads/${filename}`;

/** Files uploaded through the key API: their records and bytes, kept together and removed together. */
@Injectable()
export class KeyApiUploads {
  constructor(
    @InjectRepository(KeyApiUpload) private readonly uploads: Repository<KeyApiUpload>,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
  ) {}

  /** Keeps a file the upload reader stored temporarily; returns its server-side filename. */
  async keep(file: NonNullable<Upload['file']>, apiKeyId: string | null): Promise<KeyApiUpload> {
    const extension = extensionOf(file.clientFilename);
    const filename = `${randomBytes(24).toString('base64url')}${/^[a-z0-9]{1,10}$/.test(extension) ? `.${extension}` : ''}`;
    await this.storage.move(file.key, storageKeyOf(filename));
    return this.uploads.save(
      this.uploads.create({
        filename,
        apiKeyId,
        originalFilename: file.clientFilename.split(/[\\/]/).pop() || filename,
        sizeBytes: file.size,
        sha256: file.sha256,
        head: file.head,
        expiresAt: new Date(Date.now() + KEY_API_FILE_RETENTION_MS),
      }),
    );
  }

  /** The caller's own unexpired upload; null for anything else (another key's file looks unknown). */
  async findOwned(filename: string, apiKeyId: string | null): Promise<KeyApiUpload | null> {
    if (!UPLOAD_FILENAME.test(filename)) return null;
    const upload = await this.uploads.findOneBy({ filename });
    if (!upload || upload.apiKeyId !== apiKeyId || upload.expiresAt.getTime() <= Date.now()) return null;
    return upload;
  }

  /** Gives a conversion job its own link to the uploaded bytes: the upload can be converted again. */
  copyTo(upload: KeyApiUpload, key: string): Promise<void> {
    return this.storage.copy(storageKeyOf(upload.filename), key);
  }

  /** Removes every upload past its 24 hours; returns how many. */
  async purgeExpired(now = new Date()): Promise<number> {
    let removed = 0;
    for (;;) {
      const batch = await this.uploads.find({ where: { expiresAt: LessThanOrEqual(now) }, take: 100, order: { expiresAt: 'ASC' } });
      for (const upload of batch) {
        await this.uploads.delete({ filename: upload.filename });
        await this.storage.delete(storageKeyOf(upload.filename));
      }
      removed += batch.length;
      if (batch.length < 100) return removed;
    }
  }
}
