import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { chargeFor, Paid, type PaidWork } from '@fileshift/x402-nest';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import { ApiErrors, ApiJsonBody, ApiJsonResponse } from '../http/api-docs.decorators.js';
import { ZodValidationPipe } from '../http/zod-validation.pipe.js';
import {
  type DetectFileTypeRequest,
  DetectFileTypeRequestSchema,
  type DetectFileTypeResponse,
  DetectFileTypeResponseSchema,
} from './detect-file-type.schemas.js';
import { DetectionService } from './detection.service.js';

@ApiTags('x402')
@Controller('api/x402/v1')
export class X402DetectController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly detection: DetectionService,
  ) {}

  @Post('detect-file-type')
  @HttpCode(200)
  @Paid({ name: 'detectFileType', description: 'Detect the real format of a file from its name, size and first 200 bytes.' })
  @ApiOperation({
    operationId: 'detectFileType',
    summary: 'Detect the likely real format of a file (paid: x402 exact, fixed price).',
    description:
      'Validation runs before the payment challenge: an invalid request gets its 4xx and is never asked to pay. ' +
      'Without a payment the answer is 402 with the challenge in the PAYMENT-REQUIRED header and the body.',
  })
  @ApiJsonBody(DetectFileTypeRequestSchema)
  @ApiJsonResponse(200, DetectFileTypeResponseSchema, 'Detection result; all six fields are always present.')
  @ApiErrors(400, 422, 429, 500, 503)
  detect(@Body(new ZodValidationPipe(DetectFileTypeRequestSchema)) body: DetectFileTypeRequest): PaidWork<DetectFileTypeResponse> {
    return chargeFor(this.config.prices.detectAtomic, () => {
      const { mime_type: _mime, extension_matches: _matches, ...response } = this.detection.detect({
        filename: body.filename,
        sizeBytes: body.size_bytes,
        createdAt: body.created_at ? new Date(body.created_at) : undefined,
        header: Buffer.from(body.header_first_200_bytes_base64, 'base64'),
      });
      return response;
    });
  }
}
