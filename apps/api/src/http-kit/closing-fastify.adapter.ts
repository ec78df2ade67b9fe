import { FastifyAdapter } from '@nestjs/platform-fastify';

/**
 * The Fastify adapter, knowing when the application starts to close (before its shutdown hooks run). A request
 * still answered then (a long-polled status woken by the shutdown) is answered with `Connection: close`: Fastify
 * closes the connections idle when it closes, and a kept-alive one that finished later would hold the close until
 * its keep-alive timeout.
 */
export class ClosingFastifyAdapter extends FastifyAdapter {
  closing = false;

  override beforeClose(): void {
    this.closing = true;
    super.beforeClose();
  }
}
