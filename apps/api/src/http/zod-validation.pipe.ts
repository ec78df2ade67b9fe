import { type PipeTransform } from '@nestjs/common';
import type { z } from 'zod';
import { ApiErrorCode, ApiErrorException } from './api-error.exception.js';

/**
 * Validates a request part against a zod schema; failures are `validation_error` naming each field,
 * 422 by default (the x402 API) or 400 where the API says so (the key API keeps 422 for failed conversions).
 */
export class ZodValidationPipe<T extends z.ZodType> implements PipeTransform<unknown, z.output<T>> {
  constructor(
    private readonly schema: T,
    private readonly status: 400 | 422 = 422,
  ) {}

  transform(value: unknown): z.output<T> {
    const result = this.schema.safeParse(value);
    if (result.success) return result.data;
    const fields = result.error.issues.map((issue) => ({
      field: issue.path.length > 0 ? issue.path.join('.') : '(body)',
      message: issue.message,
    }));
    const summary = fields.map((f) => `${f.field}: ${f.message}`).join('; ');
    throw new ApiErrorException(this.status, ApiErrorCode.ValidationError, `Validation failed: ${summary}`, { fields });
  }
}
