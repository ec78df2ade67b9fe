import { describe, expect, it } from 'vitest';
import { isRedirect, redirectedRequest } from '../src/redirect-rules.js';

const post = { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer t', 'x-signature': 's' }, body: '{"a":1}' };
const here = new URL('https://hooks.example/a');
const sameOrigin = new URL('https://hooks.example/b');
const elsewhere = new URL('https://other.example/b');

describe('redirectedRequest', () => {
  it.each([
    [301, 'GET'],
    [302, 'GET'],
    [303, 'GET'],
    [307, 'POST'],
    [308, 'POST'],
  ])('a POST answered %i continues as %s', (status, method) => {
    const next = redirectedRequest(status, post, here, sameOrigin);
    expect(next.method).toBe(method);
    if (method === 'GET') {
      expect(next.body).toBeUndefined();
      expect(next.headers['content-type']).toBeUndefined();
    } else {
      expect(next.body).toBe(post.body);
      expect(next.headers['content-type']).toBe('application/json');
    }
  });

  it('keeps PUT on 301 and 302, and HEAD on 303', () => {
    expect(redirectedRequest(301, { ...post, method: 'PUT' }, here, sameOrigin)).toMatchObject({ method: 'PUT', body: post.body });
    expect(redirectedRequest(303, { method: 'HEAD', headers: {} }, here, sameOrigin).method).toBe('HEAD');
    expect(redirectedRequest(303, { ...post, method: 'PUT' }, here, sameOrigin).method).toBe('GET');
  });

  it('sends credentials headers to the same origin only', () => {
    expect(redirectedRequest(307, post, here, sameOrigin).headers.authorization).toBe('Bearer t');
    const crossed = redirectedRequest(307, { ...post, headers: { ...post.headers, Cookie: 'c=1' } }, here, elsewhere);
    expect(crossed.headers.authorization).toBeUndefined();
    expect(crossed.headers.Cookie).toBeUndefined();
    expect(crossed.headers['x-signature']).toBe('s');
    // A scheme change is another origin too.
    expect(redirectedRequest(307, post, here, new URL('http://hooks.example/a')).headers.authorization).toBeUndefined();
  });
});

describe('isRedirect', () => {
  it.each([
    [301, '/x', true],
    [308, 'https://a.example/', true],
    [302, undefined, false],
    [302, '', false],
    [300, '/x', false],
    [304, '/x', false],
    [200, '/x', false],
  ])('%i with Location %j: %s', (status, location, expected) => {
    expect(isRedirect(status, location)).toBe(expected);
  });
});
