import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Paid, Payment, type RoutePayment } from '@fileshift/x402-nest';
import { ApiErrors, ApiJsonBody, ApiJsonResponse } from '../http-kit/api-docs.decorators.js';
import { X402Api } from './x402-errors.js';
import { ZodValidationPipe } from '../http-kit/zod-validation.pipe.js';
import { DETECT_FILE_TYPE_OPERATION, PAID_ROUTES } from '../payments/paid-operations.js';
import {
  type DetectFileTypeRequest,
  DetectFileTypeRequestSchema,
  type DetectFileTypeResponse,
  DetectFileTypeResponseSchema,
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
      'without charging again; for another request the identifier is refused with 409.',
  })
  @ApiJsonBody(DetectFileTypeRequestSchema)
  @ApiJsonResponse(200, DetectFileTypeResponseSchema, 'Detection result; all six fields are always present.')
  @ApiErrors(400, 409, 422, 429, 500, 503)
  detect(@Body(new ZodValidationPipe(DetectFileTypeRequestSchema)) body: DetectFileTypeRequest, @Payment() payment: RoutePayment): Promise<DetectFileTypeResponse> {
    return this.detection.detect(body, payment);
  }
}
