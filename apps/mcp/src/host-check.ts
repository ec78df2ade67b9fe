import type { IncomingMessage } from 'node:http';

export interface AllowedNames {
  /** Host header values beside the loopback names: `name` (any port) or `name:port`. */
  hosts?: string[];
  /** Origin header values beside the loopback origins, e.g. `https://mcp.example.com`. */
  origins?: string[];
}

/**
 * DNS-rebinding protection: a web page that reaches the server through a rebound name still sends
 * that name as Host (and its own Origin), so only the server's own loopback names with its port, and
 * the names configured for a remote host, are accepted. (The SDK's transport options for this are
 * deprecated in favour of a check in front of the transport, which this is.)
 */
export class HostCheck {
  private readonly hosts: Set<string>;
  private readonly anyPortNames: Set<string>;
  private readonly origins: Set<string>;

  constructor(port: number, listeningHost: string, allowed: AllowedNames = {}) {
    const loopback = new Set(['127.0.0.1', 'localhost', '[::1]']);
    if (isLoopback(listeningHost)) loopback.add(listeningHost.includes(':') ? `[${listeningHost}]` : listeningHost);
    const configured = (allowed.hosts ?? []).map((host) => host.toLowerCase());
    this.hosts = new Set([...[...loopback].map((name) => `${name}:${port}`), ...configured.filter(hasPort)]);
    this.anyPortNames = new Set(configured.filter((host) => !hasPort(host)));
    this.origins = new Set([...[...loopback].map((name) => `http://${name}:${port}`), ...(allowed.origins ?? []).map((origin) => origin.toLowerCase().replace(/\/+$/, ''))]);
  }

  /** Why the request is refused, or null when its Host (and Origin, if any) name this server. */
  refusal(request: IncomingMessage): string | null {
    const host = request.headers.host?.toLowerCase();
    if (!host || !(this.hosts.has(host) || this.anyPortNames.has(withoutPort(host)))) {
      return `Host ${request.headers.host ?? '(none)'} is not allowed: use ${[...this.hosts, ...this.anyPortNames].join(' or ')}`;
    }
    const origin = request.headers.origin;
    if (origin !== undefined && !this.origins.has(origin.toLowerCase())) return `Origin ${origin} is not allowed`;
    return null;
  }
}

/** 127.0.0.0/8, ::1 and localhost: addresses no other machine can reach. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}

function hasPort(host: string): boolean {
  return /:\d+$/.test(host) && !/^\[[^\]]*\]$/.test(host);
}

function withoutPort(host: string): string {
  return host.replace(/:\d+$/, '');
}
