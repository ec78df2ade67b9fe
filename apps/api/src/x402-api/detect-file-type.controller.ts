import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Paid, Payment, type RoutePayment } from '@fileshift/x402-nest';
import { ApiErrors, ApiJsonBody, ApiJsonResponse } from '../http-kit/api-docs.decorators.js';
import { X402Api } from './x402-errors.js';
import { DETECT_FILE_TYPE_OPERATION, PAID_ROUTES } from '../payments/paid-operations.js';
import {
  DetectFileTypeRequestSchema,
  type DetectFileTypeResponse,
  DetectFileTypeResponseSchema,
  parseDetectFileTypeRequest,
} from '../detection/detect-file-type.schemas.js';
import { PaidDetectionService } from './paid-detection.service.js';

@ApiTags('x402')
@X402Api()
@Controller('api/x402/v1')
export class X402DetectController {
  constructor(private readonly detection: PaidDetectionService) {}

  @Post('detect-file-type')
  @HttpCode(200)
  @Paid(PAID_ROUTES[DETECT_FILE_TYPE_OPERATION])
  @ApiOperation({
    operationId: DETECT_FILE_TYPE_OPERATION,
    summary: 'Detect the likely real format of a file (paid: x402 exact, fixed price).',
    description:
      'Validation runs before the payment challenge: an invalid request gets its 4xx and is never asked to pay. ' +
      'Without a payment the answer is 402 with the challenge in the PAYMENT-REQUIRED header and the body. ' +
      'A payment carrying the identifier of an earlier settled payment for the same request (x402 payment-identifier) is answered ' +
      'without charging again; for another request the identifier is refused with 409. ' +
      'With source_url instead of the file\'s fields, the URL is checked before the challenge (a URL that can never be fetched is a 422), ' +
      'then, with the payment verified, the file is fetched and detected, and the payment settled only then: an unreachable URL, a refused ' +
      'address or redirect, an empty or oversized file answers its 4xx (source_url_refused, source_url_failed, 413) and settles nothing. ' +
      'When this server already fetches as many URLs as it may, the answer is 503 source_url_busy with Retry-After, before any payment.',
  })
  @ApiJsonBody(DetectFileTypeRequestSchema)
  @ApiJsonResponse(200, DetectFileTypeResponseSchema, 'Detection result; all six fields are always present.')
  @ApiErrors(400, 409, 413, 422, 429, 500, 503)
  detect(@Body() body: unknown, @Payment() payment: RoutePayment): Promise<DetectFileTypeResponse> {
    return this.detection.detect(parseDetectFileTypeRequest(body), payment);
  }
}
