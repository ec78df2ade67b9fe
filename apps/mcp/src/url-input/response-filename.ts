/**
 * The name of a downloaded file: Content-Disposition's `filename*` (RFC 5987) or `filename`, else the last
 * segment of the URL's path, else "download". Reduced to a bare name (no directories, no control characters). Pure.
 */
export function responseFilename(contentDisposition: string | undefined, url: URL): string {
  return bareName(fromContentDisposition(contentDisposition) ?? lastPathSegment(url)) || 'download';
}

function fromContentDisposition(header: string | undefined): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  if (extended) {
    const decoded = safeDecode(extended[2].trim());
    if (decoded) return decoded;
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/i.exec(header);
  if (!plain) return null;
  return plain[1] !== undefined ? plain[1].replace(/\\(.)/g, '$1') : plain[2];
}

function lastPathSegment(url: URL): string {
  const segments = url.pathname.split('/').filter(Boolean);
  return segments.length > 0 ? (safeDecode(segments[segments.length - 1]) ?? '') : '';
}

function safeDecode(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

function bareName(name: string): string {
  const last = name.split(/[/\\]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = last.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return clean === '.' || clean === '..' ? '' : clean.slice(0, 255);
}
