import { Inject, Injectable } from '@nestjs/common';
import type { CollectedPayment, RoutePayment } from '@fileshift/x402-nest';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import { MAX_UPLOAD_BYTES } from '../config/upload-limit.js';
import type { DetectFileTypeFromSample, DetectFileTypeFromUrl, DetectFileTypeRequest, DetectFileTypeResponse } from '../detection/detect-file-type.schemas.js';
import { type DetectionInput, DetectionService } from '../detection/detection.service.js';
import { checkedCallerUrl } from '../outbound/caller-url.js';
import { SourceFetcher } from '../source-urls/source-fetcher.js';
import { releaseReasonOf } from '../source-urls/release-reason.js';

/** The x402 detection: collect the fee, detect (fetching the file first when the request names its URL), settle, answer. */
@Injectable()
export class PaidDetectionService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly detection: DetectionService,
    private readonly sources: SourceFetcher,
  ) {}

  detect(request: DetectFileTypeRequest, payment: RoutePayment): Promise<DetectFileTypeResponse> {
    return 'source_url' in request ? this.detectAtUrl(request, payment) : this.detectSample(request, payment);
  }

  private async detectSample(request: DetectFileTypeFromSample, payment: RoutePayment): Promise<DetectFileTypeResponse> {
    const fee = await payment.collect(this.config.prices.detectAtomic);
    const response = await this.detected({
      filename: request.filename,
      sizeBytes: request.size_bytes,
      createdAt: request.created_at ? new Date(request.created_at) : undefined,
      header: Buffer.from(request.header_first_200_bytes_base64, 'base64'),
    });
    await fee.settle();
    return response;
  }

  /** Money follows the evidence: the fee is collected (verified), the file fetched and detected, and only then settled. */
  private async detectAtUrl(request: DetectFileTypeFromUrl, payment: RoutePayment): Promise<DetectFileTypeResponse> {
    const url = checkedCallerUrl('source_url', request.source_url, this.config.outbound.policy);
    const place = this.sources.reserve();
    let fee: CollectedPayment | undefined;
    try {
      fee = await payment.collect(this.config.prices.detectAtomic);
      const fetched = await place.sample(url, MAX_UPLOAD_BYTES);
      const response = await this.detected({ filename: request.filename ?? fetched.filename, sizeBytes: fetched.size, createdAt: new Date(), header: fetched.head });
      const settling = fee;
      fee = undefined;
      await settling.settle();
      return response;
    } catch (error) {
      await fee?.release(releaseReasonOf(error));
      throw error;
    } finally {
      place.release();
    }
  }

  private async detected(input: DetectionInput): Promise<DetectFileTypeResponse> {
    const { mime_type: _mime, extension_matches: _matches, alternatives: _alternatives, ...response } = await this.detection.detect(input);
    return response;
  }
}
