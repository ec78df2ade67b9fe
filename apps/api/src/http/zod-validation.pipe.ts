import { type PipeTransform } from '@nestjs/common';
import type { z } from 'zod';
import { ApiErrorCode, ApiErrorException } from './api-error.exception.js';

/** Validates a request part against a zod schema; failures are 422 `validation_error` naming each field. */
export class ZodValidationPipe<T extends z.ZodType> implements PipeTransform<unknown, z.output<T>> {
  constructor(private readonly schema: T) {}

  transform(value: unknown): z.output<T> {
    const result = this.schema.safeParse(value);
    if (result.success) return result.data;
    const fields = result.error.issues.map((issue) => ({
      field: issue.path.length > 0 ? issue.path.join('.') : '(body)',
      message: issue.message,
    }));
    const summary = fields.map((f) => `${f.field}: ${f.message}`).join('; ');
    throw new ApiErrorException(422, ApiErrorCode.ValidationError, `Validation failed: ${summary}`, { fields });
  }
}
