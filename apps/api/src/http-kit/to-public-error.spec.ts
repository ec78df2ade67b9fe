import { BadRequestException, NotFoundException } from '@nestjs/common';
import { describe, expect, it } from 'vitest';
import { ApiErrorException } from './api-error.exception.js';
import { errorBodyFor } from './error-body.js';
import { toPublicError } from './to-public-error.js';

describe('toPublicError', () => {
  it('keeps our own errors as they are', () => {
    const error = new ApiErrorException(409, 'result_not_ready', 'Still processing.', { job_id: 'job_x' });
    expect(toPublicError(error)).toEqual({ status: 409, code: 'result_not_ready', message: 'Still processing.', details: { job_id: 'job_x' } });
  });

  it('hides the message of anything unexpected behind a generic 500', () => {
    const error = toPublicError(new Error('connect ECONNREFUSED 10.0.0.3:5432 password=hunter2'));
    expect(error.status).toBe(500);
    expect(error.code).toBe('internal_error');
    expect(error.message).not.toContain('ECONNREFUSED');
  });

  it('maps framework errors to codes', () => {
    expect(toPublicError(new NotFoundException('Cannot GET /x'))).toMatchObject({ status: 404, code: 'not_found', message: 'No such resource.' });
    expect(toPublicError(new BadRequestException('bad'))).toMatchObject({ status: 400, code: 'bad_request' });
    expect(toPublicError({ statusCode: 400, code: 'FST_ERR_CTP_INVALID_JSON_BODY', message: "Unexpected token } in JSON at position 9" }))
      .toMatchObject({ status: 400, code: 'bad_request', message: 'The request body is not valid JSON.' });
    expect(toPublicError({ statusCode: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE' })).toMatchObject({ status: 413, code: 'payload_too_large' });
  });

  it('answers the router\'s and the socket\'s errors with codes of their own and never their message, which quotes the URL', () => {
    const url = '/api/x402/v1/%E0%A4%A';
    const badUrl = toPublicError({ statusCode: 400, code: 'FST_ERR_BAD_URL', message: `'${url}' is not a valid url component` });
    expect(badUrl).toEqual({ status: 400, code: 'bad_request', message: 'The request path is not valid: a percent-escape is malformed.' });
    const longParam = toPublicError({ statusCode: 414, code: 'FST_ERR_MAX_PARAM_LENGTH', message: `'${url}' is exceeding the max param length` });
    expect(longParam).toEqual({ status: 414, code: 'uri_too_long', message: 'A segment of the request path is longer than this server accepts.' });
    expect(toPublicError({ statusCode: 414 })).toEqual({ status: 414, code: 'uri_too_long', message: 'The request URL is longer than this server accepts.' });
    expect(toPublicError({ statusCode: 431 })).toMatchObject({ status: 431, code: 'headers_too_large' });
    expect(toPublicError({ statusCode: 408 })).toMatchObject({ status: 408, code: 'request_timeout' });
    expect(toPublicError({ statusCode: 417 })).toMatchObject({ status: 417, code: 'expectation_failed' });
    expect(toPublicError({ statusCode: 500, code: 'FST_ERR_ASYNC_CONSTRAINT' })).toMatchObject({ status: 500, code: 'internal_error' });
  });

  it('answers a database that cannot be reached as 503 with Retry-After, not 500', () => {
    const lost = Object.assign(new Error('Query failed'), { driverError: Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }) });
    expect(toPublicError(lost)).toMatchObject({ status: 503, code: 'dependency_unavailable', retryAfterSeconds: 5 });
    expect(toPublicError(new Error('Connection terminated unexpectedly'))).toMatchObject({ status: 503 });
    expect(toPublicError(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))).toMatchObject({ status: 503 });
    expect(toPublicError(new TypeError('x is undefined'))).toMatchObject({ status: 500 });
  });
});

describe('errorBodyFor', () => {
  const error = { status: 404, code: 'not_found', message: 'No such job.' };
  it('uses the key API shape for the key API, the ErrorResponse shape for the x402 API and everything else', () => {
    expect(errorBodyFor('key', error)).toEqual({ Status: 'Error', Message: 'No such job.' });
    expect(errorBodyFor('x402', error)).toEqual({ error: { code: 'not_found', message: 'No such job.' } });
    expect(errorBodyFor('other', { ...error, details: { job_id: 'job_x' } })).toEqual({ error: { code: 'not_found', message: 'No such job.', details: { job_id: 'job_x' } } });
  });
});
