import { Inject, Injectable } from '@nestjs/common';
import type { RoutePayment } from '@fileshift/x402-nest';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import type { DetectFileTypeRequest, DetectFileTypeResponse } from '../detection/detect-file-type.schemas.js';
import { DetectionService } from '../detection/detection.service.js';

/** The x402 detection: collect the fee, detect, settle, answer. */
@Injectable()
export class PaidDetectionService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly detection: DetectionService,
  ) {}

  async detect(request: DetectFileTypeRequest, payment: RoutePayment): Promise<DetectFileTypeResponse> {
    const fee = await payment.collect(this.config.prices.detectAtomic);
    const { mime_type: _mime, extension_matches: _matches, alternatives: _alternatives, ...response } = await this.detection.detect({
      filename: request.filename,
      sizeBytes: request.size_bytes,
      createdAt: request.created_at ? new Date(request.created_at) : undefined,
      header: Buffer.from(request.header_first_200_bytes_base64, 'base64'),
    });
    await fee.settle();
    return response;
  }
}
