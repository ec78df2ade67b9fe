import { execFile } from 'node:child_process';

/**
 * How soffice is cut off from the network. `namespace`: `unshare -n` (root or CAP_SYS_ADMIN) gives it a network
 * namespace of its own with nothing but a downed loopback. `user-namespace`: unprivileged, `unshare -r -n`
 * maps the user to root inside a new user namespace first; the bridge then runs under `unshare -r` too, so
 * both sides name the UNO pipe (a file-system socket under /tmp, reachable across network namespaces) with
 * the same user id. `none`: neither works (e.g. a container without user namespaces) or it was turned off;
 * the profile settings and load properties still keep remote content out.
 */
export type NetworkIsolationMode = 'namespace' | 'user-namespace' | 'none';

export interface NetworkIsolation {
  mode: NetworkIsolationMode;
  /** Put before the soffice command. */
  officePrefix: readonly string[];
  /** Put before the bridge command. */
  bridgePrefix: readonly string[];
  /** The user id soffice and the bridge see (it names the UNO pipe). */
  innerUid: number;
  /** For the start-up log. */
  description: string;
}

const CHECK_TIMEOUT_MS = 5000;
const MINIMAL_ENV = { PATH: '/usr/local/bin:/usr/bin:/bin', LANG: 'C.UTF-8' };

const succeeds = (command: string, args: readonly string[]) =>
  new Promise<boolean>((resolve) => {
    execFile(command, args, { timeout: CHECK_TIMEOUT_MS, env: MINIMAL_ENV }, (error) => resolve(!error));
  });

const realUid = () => process.getuid?.() ?? 0;

export const NO_NETWORK_ISOLATION: NetworkIsolation = {
  mode: 'none',
  officePrefix: [],
  bridgePrefix: [],
  innerUid: realUid(),
  description: 'no network namespace (turned off or unavailable): remote content is kept out by the profile settings and load properties alone',
};

/** Finds the strongest isolation this machine allows (runs `unshare` twice at most, a few ms each). */
export async function detectNetworkIsolation(wanted: 'auto' | 'off' = 'auto'): Promise<NetworkIsolation> {
  if (wanted === 'off') return { ...NO_NETWORK_ISOLATION, description: 'no network namespace (turned off): remote content is kept out by the profile settings and load properties alone' };
  if (await succeeds('unshare', ['-n', 'true'])) {
    return { mode: 'namespace', officePrefix: ['unshare', '-n'], bridgePrefix: [], innerUid: realUid(), description: 'soffice runs in a network namespace of its own (unshare -n): no network at all' };
  }
  if (await succeeds('unshare', ['-r', '-n', 'true'])) {
    return {
      mode: 'user-namespace',
      officePrefix: ['unshare', '-r', '-n'],
      bridgePrefix: ['unshare', '-r'],
      innerUid: 0,
      description: 'soffice runs in a user and network namespace of its own (unshare -r -n): no network at all',
    };
  }
  return { ...NO_NETWORK_ISOLATION, description: 'no network namespace (unshare -n and unshare -r -n fail here): remote content is kept out by the profile settings and load properties alone' };
}
