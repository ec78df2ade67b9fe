import { cleanFileName } from '../http-kit/file-name.js';

/** The name a fetched file gets when the response and the URL give none. */
export const FALLBACK_SOURCE_FILE_NAME = 'download';

/**
 * The name of a file fetched from `url` (after redirects): the response's Content-Disposition filename (RFC 6266,
 * `filename*` first), else the URL's last path segment, decoded; cleaned as an upload's client file name is.
 */
export function sourceFileName(contentDisposition: string | undefined, url: string): string {
  return cleanFileName(dispositionName(contentDisposition ?? '') ?? lastPathSegment(url)) || FALLBACK_SOURCE_FILE_NAME;
}

function dispositionName(header: string): string | undefined {
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  if (extended) {
    const decoded = percentDecoded(extended[2]!.trim(), extended[1]!.trim());
    if (decoded) return decoded;
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/i.exec(header);
  if (!plain) return undefined;
  return plain[1] !== undefined ? plain[1].replace(/\\(.)/g, '$1') : plain[2]!.trim();
}

function lastPathSegment(url: string): string {
  try {
    const segment = new URL(url).pathname.split('/').pop() ?? '';
    return percentDecoded(segment, 'utf-8') ?? segment;
  } catch {
    return '';
  }
}

/** Percent-decoded text in `charset` (UTF-8 or Latin-1); undefined when it does not decode. */
function percentDecoded(text: string, charset: string): string | undefined {
  try {
    if (/^iso-8859-1$/i.test(charset)) return text.replace(/%([0-9a-f]{2})/gi, (_escape, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
