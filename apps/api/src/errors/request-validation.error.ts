import type { z } from 'zod';
import { DomainError } from './domain-error.js';

export enum RequestValidationErrorCode {
  InvalidFields = 'invalid_fields',
}

export interface FieldProblem {
  field: string;
  message: string;
}

/** Fields of a request that break its schema or its rules; names each failing field. */
export class RequestValidationError extends DomainError<RequestValidationErrorCode> {
  /** `hints`: more details for the client beside `fields`, such as the values it could have given. */
  constructor(
    readonly fields: FieldProblem[],
    hints: Record<string, unknown> = {},
  ) {
    super(RequestValidationErrorCode.InvalidFields, `Validation failed: ${fields.map((f) => `${f.field}: ${f.message}`).join('; ')}`, { fields, ...hints });
  }

  static of(field: string, message: string): RequestValidationError {
    return new RequestValidationError([{ field, message }]);
  }
}

/** Parses `value` with `schema`, or throws the fields it breaks. */
export function validated<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new RequestValidationError(
    result.error.issues.map((issue) => ({ field: issue.path.length > 0 ? issue.path.map(String).join('.') : '(body)', message: issue.message })),
  );
}
