import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { extensionOf } from '@fileshift/formats';
import { LessThanOrEqual, type Repository } from 'typeorm';
import type { Upload } from '../http-kit/upload-reader.js';
import { UploadError, UploadErrorCode } from '../http-kit/upload.error.js';
import { FILE_STORAGE, type FileStorage } from '../storage/file-storage.js';
import { KeyApiUpload } from './key-api-upload.entity.js';

export const KEY_API_FILE_RETENTION_MS = 24 * 3600 * 1000;
/** 32 random characters (192 bits), then the client's extension so the name stays readable. */
export const UPLOAD_FILENAME = /^[A-Za-z0-9_-]{32}(\.[a-z0-9]{1,10}){0,2}$/;

/** The storage key of an upload: its random part, so it is known before the client's file name arrives. */
export const uploadStorageKey = (filename: string) => `key-api/uploads/${filename.slice(0, 32)}`;

/** A place for one upload, chosen before its bytes arrive. */
export interface UploadSlot {
  id: string;
  storageKey: string;
}

/** Files uploaded through the key API: their records and bytes, kept together and removed together. */
@Injectable()
export class KeyApiUploads {
  constructor(
    @InjectRepository(KeyApiUpload) private readonly uploads: Repository<KeyApiUpload>,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
  ) {}

  /** Where the next upload's bytes go. */
  newSlot(): UploadSlot {
    const id = randomBytes(24).toString('base64url');
    return { id, storageKey: uploadStorageKey(id) };
  }

  /** Records an upload stored in `slot`; its server-side filename is the slot's id plus the client's extension. */
  async keep(slot: UploadSlot, upload: Upload, apiKeyId: string | null): Promise<KeyApiUpload> {
    const file = upload.file;
    if (!file) throw new UploadError(UploadErrorCode.MissingFile, 'Send the file in the multipart part named "file".');
    if (file.size === 0) {
      await this.storage.delete(slot.storageKey);
      throw new UploadError(UploadErrorCode.EmptyFile, 'The file is empty.');
    }
    const extension = extensionOf(file.clientFilename);
    // A double extension the catalogue knows (tar.gz) is kept whole.
    const filename = `${slot.id}${/^[a-z0-9]{1,10}(\.[a-z0-9]{1,10})?$/.test(extension) ? `.${extension}` : ''}`;
    return this.uploads.save(
      this.uploads.create({
        filename,
        apiKeyId,
        originalFilename: file.clientFilename || filename,
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

  /** Removes every upload past its 24 hours; returns how many. */
  async purgeExpired(now = new Date()): Promise<number> {
    let removed = 0;
    for (;;) {
      const batch = await this.uploads.find({ where: { expiresAt: LessThanOrEqual(now) }, take: 100, order: { expiresAt: 'ASC' } });
      for (const upload of batch) {
        await this.uploads.delete({ filename: upload.filename });
        await this.storage.delete(uploadStorageKey(upload.filename));
      }
      removed += batch.length;
      if (batch.length < 100) return removed;
    }
  }
}
