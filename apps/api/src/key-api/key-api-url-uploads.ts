import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import { validated } from '../errors/request-validation.error.js';
import { cleanFileName } from '../http-kit/file-name.js';
import { singleFileUpload } from '../http-kit/upload-reader.js';
import { checkedCallerUrl } from '../outbound/caller-url.js';
import { SourceFetcher } from '../source-urls/source-fetcher.js';
import type { KeyApiUpload } from './key-api-upload.entity.js';
import { KeyApiUploads } from './key-api-uploads.js';
import { KeyApiUploadFromUrlSchema } from './key-api.schemas.js';

/**
 * POST /api/v1/upload with a JSON body naming `source_url`: the file is fetched through the outbound guard into a new
 * upload's place, under the caller's upload limit, and kept as an upload is.
 */
@Injectable()
export class KeyApiUrlUploads {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly sources: SourceFetcher,
    private readonly uploads: KeyApiUploads,
  ) {}

  async fetch(body: unknown, maxBytes: number, apiKeyId: string | null): Promise<KeyApiUpload> {
    const fields = validated(KeyApiUploadFromUrlSchema, body);
    const url = checkedCallerUrl('source_url', fields.source_url, this.config.outbound.policy);
    const place = this.sources.reserve();
    const slot = this.uploads.newSlot();
    const file = await place.toStorage(url, slot.storageKey, maxBytes);
    const clientFilename = fields.filename === undefined ? file.filename : cleanFileName(fields.filename) || file.filename;
    return this.uploads.keep(slot, singleFileUpload({}, { key: slot.storageKey, clientFilename, size: file.size, sha256: file.sha256, head: file.head }), apiKeyId);
  }
}
