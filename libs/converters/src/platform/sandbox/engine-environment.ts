/**
 * The whole environment of an engine process beside what its runtime adds: no proxies, no secrets of the
 * worker's, a home and a temporary directory of its own, a user name (so nothing looks one up in /etc/passwd).
 */
export function engineEnvironment(home: string, tmp = home): Record<string, string> {
  return { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: home, TMPDIR: tmp, LANG: 'C.UTF-8', USER: 'engine', LOGNAME: 'engine' };
}
