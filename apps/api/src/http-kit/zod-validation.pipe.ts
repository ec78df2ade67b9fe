import { type PipeTransform } from '@nestjs/common';
import type { z } from 'zod';
import { validated } from '../errors/request-validation.error.js';

/** Validates a request part against a zod schema; a failure names each field (each API's filter picks the status). */
export class ZodValidationPipe<T extends z.ZodType> implements PipeTransform<unknown, z.output<T>> {
  constructor(private readonly schema: T) {}

  transform(value: unknown): z.output<T> {
    return validated(this.schema, value);
  }
}
