import fc from 'fast-check';

/**
 * Input generators of the HTTP fuzz test: values close to valid most of the time (so each rule of
 * the service is reached on its own) and anything at all now and then.
 */

const weighted = <T>(...entries: Array<[number, fc.Arbitrary<T>]>) => fc.oneof(...entries.map(([weight, arbitrary]) => ({ weight, arbitrary })));

const PRINTABLE = fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code));
const CONTROL = fc.constantFrom('\u0000', '\u0001', '\u0007', '\b', '\t', '\n', '\r', '\u001b', '\u007f', '\u0085', '\u2028', '\ufeff');

/** The text without C0 and C1 control characters and DEL (which file name fields refuse). */
export const withoutControlCharacters = (text: string) =>
  [...text].filter((char) => { const code = char.codePointAt(0)!; return code > 0x1f && (code < 0x7f || code > 0x9f); }).join('');

/** Printable ASCII, what a header value may always carry. */
export const printable = (maxLength = 40, minLength = 0) => fc.string({ unit: PRINTABLE, minLength, maxLength });
/** Text of any kind: unicode, lone surrogates, control characters and NUL. */
export const anyText = (maxLength = 40) =>
  weighted<string>(
    [3, fc.string({ unit: 'grapheme', maxLength })],
    [2, fc.string({ unit: 'binary', maxLength })],
    [2, fc.string({ unit: weighted<string>([3, PRINTABLE], [1, CONTROL]), maxLength })],
    [1, printable(maxLength)],
  );
/** Latin-1 text: what HTTP headers can carry beyond ASCII. */
export const latin1 = (maxLength = 40) => fc.string({ unit: fc.integer({ min: 0x20, max: 0xff }).filter((c) => c !== 0x7f).map((c) => String.fromCharCode(c)), maxLength });

const URL_SAFE = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-');
export const urlSafe = (minLength: number, maxLength: number) => fc.string({ unit: URL_SAFE, minLength, maxLength });

function encodeSegment(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    // A lone surrogate: send its UTF-16 code units as raw escapes (what a broken client would).
    return [...value].map((char) => `%${(char.charCodeAt(0) & 0xff).toString(16).padStart(2, '0')}`).join('');
  }
}

/** Percent-encodes every character, unreserved ones too (`a` → `%61`). */
const encodeAll = (value: string) => [...Buffer.from(value, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0').toUpperCase()}`).join('');

/**
 * A path segment where an id goes: valid-looking, too long, unicode, percent-encoded (also the
 * unreserved characters, and malformed escapes), dot segments, encoded slashes, raw Latin-1 bytes.
 * `real` are ids the service knows; they appear as they are and slightly changed.
 */
export function idSegment(prefix: string, real: readonly string[] = []): fc.Arbitrary<string> {
  const knownIds = real.length > 0 ? [fc.constantFrom(...real)] : [];
  const changed = real.length > 0
    ? [
        fc.tuple(fc.constantFrom(...real), fc.nat(), URL_SAFE).map(([id, at, char]) => { const i = at % id.length; return id.slice(0, i) + char + id.slice(i + 1); }),
        fc.constantFrom(...real).map((id) => id.toUpperCase()),
        fc.tuple(fc.constantFrom(...real), urlSafe(1, 30)).map(([id, tail]) => id + tail),
        fc.tuple(fc.constantFrom(...real), fc.nat()).map(([id, at]) => { const i = at % id.length; return id.slice(0, i) + encodeAll(id.slice(i, i + 1)) + id.slice(i + 1); }),
        fc.tuple(fc.constantFrom(...real), fc.constantFrom('%00', '%2F', '/..', '%20', '.', '~')).map(([id, tail]) => id + tail),
      ]
    : [];
  return weighted<string>(
    [3, urlSafe(22, 80).map((tail) => `${prefix}${tail}`)],
    [2, urlSafe(81, 300).map((tail) => `${prefix}${tail}`)],
    [1, urlSafe(0, 21).map((tail) => `${prefix}${tail}`)],
    [2, anyText(40).map(encodeSegment)],
    [1, urlSafe(22, 40).map((tail) => encodeAll(`${prefix}${tail}`))],
    [1, fc.constantFrom('..', '.', '%2e%2e', '%2E', '..%2F..%2F..%2Fetc%2Fpasswd', '%2F', '%00', '%zz', '%E0%A4%A', '%', '%%', '%C0%AE%C0%AE', '%FF%FE', '~', '-', 'null', 'undefined', '0', '-1', "job_'%3B%20DROP%20TABLE%20conversion_jobs%3B--", "job_'OR'1'='1", 'job_$(id)', '*', '%2A')],
    [1, latin1(30).filter((s) => s.length > 0 && /^[\x21-\xff]+$/.test(s) && !/[?#/]/.test(s))],
    ...knownIds.map((arbitrary): [number, fc.Arbitrary<string>] => [3, arbitrary]),
    ...changed.map((arbitrary): [number, fc.Arbitrary<string>] => [1, arbitrary]),
  );
}

/** A query string now and then: none, random parameters, duplicated ones, encoded junk. */
export const query = weighted<string>(
  [6, fc.constant('')],
  [1, fc.array(fc.tuple(urlSafe(1, 10), anyText(20).map(encodeSegment)), { minLength: 1, maxLength: 4 }).map((pairs) => `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`)],
  [1, fc.constantFrom('?', '?&&', '?a=1&a=2', '?__proto__[x]=1', '?constructor[prototype][x]=1', '?%zz', '#frag', '?a=%00')],
);

// ---------------------------------------------------------------------------------------------
// JSON bodies

/** JSON text of a value that is wrong for almost any field, some of it impossible to write with JSON.stringify. */
export const wrongJson = weighted<string>(
  [3, fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value))],
  [2, anyText(60).map((value) => JSON.stringify(value))],
  [1, fc.string({ unit: PRINTABLE, minLength: 256, maxLength: 2000 }).map((value) => JSON.stringify(value))],
  [1, fc.constantFrom('1e400', '-1e400', '-0', '1e21', '123456789012345678901234567890', '0.1', '-1', '9007199254740993', '1.0', '0e0', 'true', 'null', '[]', '{}', '""', '" "', '"\\u0000"', '"\\ud800"', '[null]', '{"__proto__":{"x":1}}')],
  [1, fc.bigInt({ min: -(2n ** 300n), max: 2n ** 300n }).map(String)],
);

/**
 * A JSON object text over `fields`: each field mostly valid, sometimes wrong, missing or duplicated,
 * with unknown keys now and then. Values are JSON texts, so `1e400` and duplicate keys can be written.
 */
export function jsonObjectText(fields: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<string> {
  const entries = Object.entries(fields).map(([key, valid]) =>
    weighted<Array<[string, string]>>(
      [8, valid.map((value): Array<[string, string]> => [[key, value]])],
      [2, wrongJson.map((value): Array<[string, string]> => [[key, value]])],
      [1, fc.constant([])],
      [1, fc.tuple(valid, wrongJson).map(([a, b]): Array<[string, string]> => [[key, a], [key, b]])],
    ),
  );
  const extra = weighted<Array<[string, string]>>(
    [6, fc.constant([])],
    [2, fc.array(fc.tuple(anyText(20), wrongJson), { maxLength: 4 })],
    [1, fc.constantFrom<Array<[string, string]>>([['__proto__', '{"polluted":true}']], [['constructor', '{"prototype":{"polluted":true}}']], [['__proto__', 'null']])],
  );
  return fc.tuple(fc.tuple(...entries), extra).map(([pairs, more]) => `{${[...pairs.flat(), ...more].map(([key, value]) => `${JSON.stringify(key)}:${value}`).join(',')}}`);
}

/** Any JSON body: a near-valid object most of the time; else random JSON, deep nesting, truncated or not JSON at all. */
export function jsonBody(fields: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<string | Buffer> {
  const near = jsonObjectText(fields);
  return weighted<string | Buffer>(
    [10, near],
    [3, fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value) ?? 'null')],
    [1, fc.tuple(near, fc.nat()).map(([text, at]) => text.slice(0, at % Math.max(1, text.length)))],
    [1, fc.integer({ min: 1000, max: 20_000 }).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`)],
    [1, fc.integer({ min: 1000, max: 20_000 }).map((depth) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`)],
    [1, fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes))],
    [1, fc.constantFrom('', ' ', 'null', '"text"', '[1,2', '{"a":1}}', '{,}', '\ufeff{}', '{"a":"\\x00"}', "{'a':1}", 'NaN', '{"a":1,}')],
    [1, near.map((text) => Buffer.from(text, 'utf16le'))],
  );
}

/** Sizes over the 1 MiB JSON limit (the test builds the body, so no huge value sits in fast-check's memory). */
export const OVERSIZED_JSON_BYTES = 1_100_000;

// ---------------------------------------------------------------------------------------------
// Headers

const jsonContentType = fc.constantFrom('application/json', 'application/json; charset=utf-8');
const otherContentType = fc.constantFrom(
  'APPLICATION/JSON',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'application/json;;;',
  'application/jsonx',
  'application/problem+json',
  'application/vnd.api+json',
  'text/plain',
  'text/plain; charset=utf-8',
  'application/octet-stream',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'multipart/form-data; boundary=zzz',
  'multipart/mixed; boundary=x',
  'text/html',
  'image/png',
  '*/*',
  '',
  ' ',
  ';',
  'application/',
  '/json',
  'application/json, text/plain',
);
export const contentTypeFor = (preferred: fc.Arbitrary<string>) =>
  weighted<string | undefined>([8, preferred], [3, otherContentType], [1, printable(60)], [1, fc.constant(undefined)]);
export const jsonContentTypes = contentTypeFor(jsonContentType);

export const acceptHeader = weighted<string | undefined>(
  [4, fc.constant(undefined)],
  [3, fc.constantFrom('application/json', 'text/plain', 'text/plain, application/json', 'application/json;q=0.9, text/plain;q=1', '*/*', 'text/html', 'image/*', 'application/json;q=0', 'application/json;q=abc', 'application/xml', '', ',,,', ';q=1', 'application/json; charset=latin1')],
  [1, printable(80)],
  [1, latin1(40)],
);

/** Idempotency-Key: printable, 0..300 characters (the valid range is 8..128). */
export const idempotencyKey = weighted<string | undefined>([3, fc.constant(undefined)], [3, printable(300)], [2, printable(128, 8)], [1, latin1(40)]);

/** Api-Key: none, random, empty, several, or (given) a real key, plain or padded. */
export const apiKeyHeader = (realKey: string) =>
  weighted<string | string[] | undefined>(
    [6, fc.constant(undefined)],
    [2, fc.constant(realKey)],
    [1, fc.constantFrom(`${realKey} `, ` ${realKey}`, realKey.toUpperCase(), realKey.slice(0, -1), `${realKey}x`)],
    [2, printable(80)],
    [1, urlSafe(43, 43).map((tail) => `fsk_${tail}`)],
    [1, fc.constantFrom('', ' ', 'fsk_', 'null', 'Bearer x')],
    [1, fc.array(weighted<string>([1, printable(50)], [1, fc.constant(realKey)]), { minLength: 2, maxLength: 3 })],
    [1, latin1(60)],
  );

/** Headers no route asks for, which a proxy, a browser or an attacker adds. */
export const strayHeaders = fc.record(
  {
    host: fc.constantFrom('evil.example', 'a b', '[::1]:99999', 'x:y:z', '', '%00', 'a/b?c#d', `${'h'.repeat(300)}.example`, 'localhost:0', '127.0.0.1:1/../'),
    'x-request-id': weighted<string>([1, printable(200)], [1, fc.uuid()]),
    'x-forwarded-for': fc.constantFrom('1.2.3.4', 'not-an-ip', '::1, 10.0.0.1', ''),
    'x-forwarded-proto': fc.constantFrom('https', 'gopher', ''),
    'x-forwarded-host': fc.constantFrom('evil.example', '', 'a b'),
    'content-encoding': fc.constantFrom('gzip', 'br', 'deflate', 'identity', 'x-unknown', ''),
    expect: fc.constantFrom('100-continue', 'nothing', '', '200-ok'),
    range: fc.constantFrom('bytes=0-0', 'bytes=abc', 'bytes=-1', 'bytes=0-0,1-1,2-2', 'items=1'),
    'if-none-match': printable(40),
    'if-modified-since': fc.constantFrom('Wed, 21 Oct 2015 07:28:00 GMT', 'garbage'),
    cookie: printable(100),
    'user-agent': latin1(100),
    'accept-encoding': fc.constantFrom('gzip', 'br', '*', 'identity;q=0'),
    'accept-language': printable(40),
    origin: fc.constantFrom('https://evil.example', 'null'),
    'access-control-request-method': fc.constantFrom('POST', 'DELETE'),
    authorization: printable(60),
    'x-http-method-override': fc.constantFrom('DELETE', 'PUT', 'GET'),
    'x-original-url': fc.constantFrom('/api/v1/convert', '/admin'),
    forwarded: fc.constantFrom('for=1.2.3.4;proto=https', 'garbage'),
    'content-length': fc.constantFrom('abc', '-1', '1.5', '0x10'),
  },
  { requiredKeys: [] },
);

// ---------------------------------------------------------------------------------------------
// Multipart bodies

export interface MultipartPart {
  name: string;
  filename?: string;
  contentType?: string;
  content: Buffer;
  /** A hand-written header block instead of the well-formed one. */
  rawHead?: string;
}

export interface MultipartShape {
  boundary: string;
  parts: MultipartPart[];
  /** Cut the body after this many bytes. */
  truncateAt?: number;
  noClosingBoundary?: boolean;
  preamble?: string;
  lineBreak?: '\r\n' | '\n';
}

/** A multipart/form-data body written by hand, so parts can be malformed. */
export function multipartBody({ boundary, parts, truncateAt, noClosingBoundary, preamble = '', lineBreak = '\r\n' }: MultipartShape): Buffer {
  const chunks: Buffer[] = [Buffer.from(preamble, 'latin1')];
  for (const part of parts) {
    const disposition = `Content-Disposition: form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`;
    const head = part.rawHead ?? [disposition, ...(part.contentType === undefined ? [] : [`Content-Type: ${part.contentType}`])].join(lineBreak);
    chunks.push(Buffer.from(`--${boundary}${lineBreak}${head}${lineBreak}${lineBreak}`, 'utf8'), part.content, Buffer.from(lineBreak));
  }
  if (!noClosingBoundary) chunks.push(Buffer.from(`--${boundary}--${lineBreak}`));
  const body = Buffer.concat(chunks);
  return truncateAt === undefined ? body : body.subarray(0, truncateAt % (body.length + 1));
}

const BOUNDARY_CHARS = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789\'()+_,-./:=?');
export const boundary = weighted<string>(
  [6, fc.string({ unit: BOUNDARY_CHARS, minLength: 1, maxLength: 70 })],
  [1, fc.string({ unit: BOUNDARY_CHARS, minLength: 71, maxLength: 200 })],
  [1, printable(30).filter((s) => s.length > 0)],
  [1, fc.constantFrom('-', '--', '"', 'a b', 'x;y', '----WebKitFormBoundary7MA4YWxkTrZu0gW')],
);

/** The Content-Type header of a multipart request, mostly matching its body's boundary. */
export const multipartContentType = (bodyBoundary: string) =>
  weighted<string | undefined>(
    [10, fc.constant(`multipart/form-data; boundary=${bodyBoundary}`)],
    [1, fc.constant(`multipart/form-data; boundary="${bodyBoundary}"`)],
    [1, fc.constant(`Multipart/Form-Data; Boundary=${bodyBoundary}; charset=utf-8`)],
    [1, fc.constant('multipart/form-data')],
    [1, boundary.map((other) => `multipart/form-data; boundary=${other}`)],
    [1, otherContentType],
    [1, fc.constant(undefined)],
  );

/** A part's header block written wrong: no name, unterminated quotes, header injection, junk. */
export const brokenPartHead = fc.constantFrom(
  'Content-Disposition: form-data',
  'Content-Disposition: form-data; name=',
  'Content-Disposition: form-data; name="file',
  'Content-Disposition: attachment; name="file"; filename="x.png"',
  'Content-Disposition: form-data; name="file"; filename*=UTF-8\'\'%E2%82%AC.png',
  'Content-Disposition: form-data; name="file"; filename="../../../../etc/passwd"',
  'Content-Disposition: form-data; name="file"; filename="C:\\Windows\\win.ini"',
  'Content-Disposition: form-data; name="file"; filename="a\u0000b.png"',
  'Content-Disposition: form-data; name="file"; filename=""',
  'Content-Disposition: form-data; name="__proto__"',
  'Content-Disposition: form-data; name="constructor"',
  'Content-Type: image/png',
  '',
  'garbage',
  `Content-Disposition: form-data; name="${'n'.repeat(5000)}"`,
  'Content-Disposition: form-data; name="file"; filename="x.png"\r\nContent-Transfer-Encoding: base64',
);

// ---------------------------------------------------------------------------------------------
// The key API's binary detect body

/** Five segments joined by 0xFE, mostly well-formed; sometimes fewer or more separators, odd sizes, Latin-1 names. */
export const keyDetectBody = fc
  .record({
    ext: weighted<Buffer>([4, fc.constantFrom('png', 'jpg', 'pdf', 'txt', 'docx', 'mp3', 'webp', '').map((s) => Buffer.from(s))], [1, anyText(10).map((s) => Buffer.from(s))], [1, fc.uint8Array({ maxLength: 12 }).map((b) => Buffer.from(b))]),
    size: weighted<Buffer>(
      [4, fc.nat({ max: 50_000_000 }).map((n) => Buffer.from(n.toString(16)))],
      [1, fc.nat().map((n) => Buffer.from(`0x${n.toString(16).toUpperCase()}`))],
      [1, fc.constantFrom('', 'zz', '-1', 'f'.repeat(40), '0x', '1e3', ' 10', '0'.repeat(100), 'Infinity', 'NaN').map((s) => Buffer.from(s))],
      [1, fc.uint8Array({ maxLength: 10 }).map((b) => Buffer.from(b))],
    ),
    mime: weighted<Buffer>([3, fc.constantFrom('image/png', 'application/pdf', 'text/plain', '', 'application/octet-stream').map((s) => Buffer.from(s))], [1, anyText(30).map((s) => Buffer.from(s))]),
    filename: weighted<Buffer>([3, anyText(40).map((s) => Buffer.from(s, 'utf8'))], [1, latin1(40).map((s) => Buffer.from(s, 'latin1'))], [1, fc.constantFrom('../../etc/passwd', 'C:\\x.png', '', '.png', 'a'.repeat(300)).map((s) => Buffer.from(s))]),
    head: fc.uint8Array({ maxLength: 260 }).map((b) => Buffer.from(b)),
    separators: weighted<number>([8, fc.constant(4)], [1, fc.integer({ min: 0, max: 3 })], [1, fc.integer({ min: 5, max: 8 })]),
  })
  .map(({ ext, size, mime, filename, head, separators }) => {
    const segments = [ext, size, mime, filename, head];
    const parts: Buffer[] = [];
    for (const [index, segment] of segments.entries()) {
      parts.push(segment);
      if (index < segments.length - 1 && index < separators) parts.push(Buffer.from([0xfe]));
    }
    for (let extra = 4; extra < separators; extra++) parts.push(Buffer.from([0xfe]), Buffer.from('x'));
    return Buffer.concat(parts);
  });
