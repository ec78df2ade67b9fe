import type { IncomingMessage } from 'node:http';

/**
 * DNS-rebinding protection for a server on a loopback address: a web page that reaches it through a
 * rebound name still sends that name as Host (and its own Origin), so only the server's own names
 * with its port are accepted. (The SDK's transport options for this are deprecated in favour of a
 * check in front of the transport, which this is.)
 */
export class HostCheck {
  private readonly hosts: Set<string>;
  private readonly origins: Set<string>;

  constructor(port: number, listeningHost: string) {
    const names = new Set(['127.0.0.1', 'localhost', '[::1]', listeningHost.includes(':') ? `[${listeningHost}]` : listeningHost]);
    this.hosts = new Set([...names].map((name) => `${name}:${port}`));
    this.origins = new Set([...this.hosts].map((host) => `http://${host}`));
  }

  /** Why the request is refused, or null when its Host (and Origin, if any) name this server. */
  refusal(request: IncomingMessage): string | null {
    const host = request.headers.host;
    if (!host || !this.hosts.has(host.toLowerCase())) return `Host ${host ?? '(none)'} is not allowed: use ${[...this.hosts].join(' or ')}`;
    const origin = request.headers.origin;
    if (origin !== undefined && !this.origins.has(origin.toLowerCase())) return `Origin ${origin} is not allowed`;
    return null;
  }
}
