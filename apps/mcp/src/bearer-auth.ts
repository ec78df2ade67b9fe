import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export interface AuthRefusal {
  message: string;
  /** The WWW-Authenticate header of the 401 (RFC 6750). */
  challenge: string;
}

/**
 * One static bearer token (FILESHIFT_MCP_TOKEN) for the HTTP transport. Compared as SHA-256 digests
 * with timingSafeEqual, so neither the content nor the length of the token leaks through timing.
 */
export class BearerAuth {
  private readonly expected: Buffer;

  constructor(token: string) {
    this.expected = digest(token);
  }

  /** Why the request is refused (answered 401), or null when it carries the token. */
  refusal(request: IncomingMessage): AuthRefusal | null {
    const header = request.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match) return { message: 'Authentication required: send Authorization: Bearer <FILESHIFT_MCP_TOKEN>', challenge: 'Bearer realm="fileshift-mcp"' };
    if (!timingSafeEqual(digest(match[1]!), this.expected)) {
      return { message: 'The bearer token is not valid', challenge: 'Bearer realm="fileshift-mcp", error="invalid_token"' };
    }
    return null;
  }
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
