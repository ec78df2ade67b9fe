import type { HTTPAdapter } from '@x402/core/server';

/**
 * `@x402/core`'s view of an unpaid request that was never made: the one whose challenge a discovery document
 * publishes. It carries what the challenge depends on (method, URL and price) and no header, query or body.
 */
export class PublishedRequestAdapter implements HTTPAdapter {
  constructor(
    private readonly method: string,
    private readonly path: string,
    private readonly url: string,
    readonly priceAtomic: string,
  ) {}

  getHeader(): string | undefined {
    return undefined;
  }

  getMethod(): string {
    return this.method;
  }

  getPath(): string {
    return this.path;
  }

  getUrl(): string {
    return this.url;
  }

  getAcceptHeader(): string {
    return 'application/json';
  }

  getUserAgent(): string {
    return '';
  }
}
