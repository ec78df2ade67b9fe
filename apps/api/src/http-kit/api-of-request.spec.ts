import { describe, expect, it } from 'vitest';
import { apiOfPath, apiOfRequest, normalisedPath } from './api-of-request.js';

const unmatched = (url: string) => apiOfRequest({ routePattern: undefined, url });

describe('apiOfRequest', () => {
  it('goes by the matched route, whatever spelling of the path reached it', () => {
    const status = '/api/x402/v1/convert-file/:job_id/status';
    expect(apiOfRequest({ routePattern: status, url: '/api/x402/v%31/convert-file/job_x/status' })).toBe('x402');
    expect(apiOfRequest({ routePattern: '/api/v1/list_ext_out', url: '/%61pi/v1/list_ext_out' })).toBe('key');
    expect(apiOfRequest({ routePattern: '/tmp/:file', url: '/tmp/abc.png' })).toBe('key');
    expect(apiOfRequest({ routePattern: '/openapi.json', url: '/openapi.json?x=/api/v1/' })).toBe('other');
  });

  it('goes by the normalised path when no route matched', () => {
    expect(unmatched('/api/x402/v%31/no-such-thing')).toBe('x402');
    expect(unmatched('/%61pi/x402/v1/no-such-thing')).toBe('x402');
    expect(unmatched('/api/x402/v1//health')).toBe('x402');
    expect(unmatched('/api/x402/v1/%E0%A4%A')).toBe('x402');
    expect(unmatched('/api/v%31/no-such-thing')).toBe('key');
    expect(unmatched('//api//v1/')).toBe('key');
    expect(unmatched('/tmp/%E0%A4%A.png')).toBe('key');
    expect(unmatched('/no-such-thing?next=/api/v1/convert')).toBe('other');
  });
});

describe('apiOfPath', () => {
  it('knows the roots of both APIs, with or without a trailing part', () => {
    expect(apiOfPath('/api/x402/v1')).toBe('x402');
    expect(apiOfPath('/api/x402/v1/detect-file-type')).toBe('x402');
    expect(apiOfPath('/api/v1')).toBe('key');
    expect(apiOfPath('/api/v1/convert')).toBe('key');
    expect(apiOfPath('/tmp/abc.png')).toBe('key');
    expect(apiOfPath('/')).toBe('other');
    expect(apiOfPath('/.well-known/x402.json')).toBe('other');
  });

  it('does not take a root for a longer segment that begins like it', () => {
    expect(apiOfPath('/api/x402/v10/detect-file-type')).toBe('other');
    expect(apiOfPath('/api/v12/convert')).toBe('other');
    expect(apiOfPath('/tmpfiles/abc.png')).toBe('other');
  });

  it('is case-sensitive, like the router: /API/... matches no route of either API', () => {
    expect(apiOfPath('/API/x402/v1/detect-file-type')).toBe('other');
    expect(apiOfPath('/API/v1/convert')).toBe('other');
    expect(apiOfPath('/Tmp/abc.png')).toBe('other');
  });
});

describe('normalisedPath', () => {
  it('decodes escapes of unreserved characters, in either hex case', () => {
    expect(normalisedPath('/api/x402/v%31/detect-file-type')).toBe('/api/x402/v1/detect-file-type');
    expect(normalisedPath('/%61pi/x402/v1/detect-file-type')).toBe('/api/x402/v1/detect-file-type');
    expect(normalisedPath('/%61%70%69/%76%31/%6c%69%73%74%5F%65%78%74%5f%6F%75%74')).toBe('/api/v1/list_ext_out');
    expect(normalisedPath('/a%2Db%2ec%5fd%7Ee')).toBe('/a-b.c_d~e');
  });

  it('keeps other escapes as sent: an encoded slash is no separator, an encoded ? no query', () => {
    expect(normalisedPath('/api%2Fv1/convert')).toBe('/api%2Fv1/convert');
    expect(normalisedPath('/tmp/a%3Fb.png')).toBe('/tmp/a%3Fb.png');
    expect(normalisedPath('/tmp/%C3%A9.png')).toBe('/tmp/%C3%A9.png');
  });

  it('never throws on a malformed escape', () => {
    expect(normalisedPath('/api/x402/v1/%E0%A4%A')).toBe('/api/x402/v1/%E0%A4%A');
    expect(normalisedPath('/api/v1/%')).toBe('/api/v1/%');
    expect(normalisedPath('/api/v1/%zz%4')).toBe('/api/v1/%zz%4');
  });

  it('drops the query, the fragment and empty segments', () => {
    expect(normalisedPath('/api/x402/v1//health?x=1')).toBe('/api/x402/v1/health');
    expect(normalisedPath('/api/v1/convert/#top')).toBe('/api/v1/convert');
    expect(normalisedPath('')).toBe('/');
    expect(normalisedPath('?only=query')).toBe('/');
  });

  it('keeps dot segments, which the router takes literally: /tmp/../x stays a request under /tmp/', () => {
    expect(normalisedPath('/tmp/../package.json')).toBe('/tmp/../package.json');
    expect(normalisedPath('/tmp/%2e%2E/x')).toBe('/tmp/../x');
    expect(apiOfRequest({ routePattern: undefined, url: '/tmp/../package.json' })).toBe('key');
    expect(apiOfRequest({ routePattern: undefined, url: '/api/v1/../x402/v1/health' })).toBe('key');
  });
});
