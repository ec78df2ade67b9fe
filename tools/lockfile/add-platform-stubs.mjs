#!/usr/bin/env node
// The npm registry reachable here serves only this platform's builds of native packages
// (@swc/core-darwin-arm64 and the like answer 404), so `npm install` leaves them out of
// package-lock.json and `npm ci` then refuses the lock as out of sync. This adds an entry for each
// missing optional platform package, marked optional with its os/cpu, so `npm ci` skips it on
// other platforms exactly as it would with a complete lock. Run after `npm install`:
//   node tools/lockfile/add-platform-stubs.mjs
import { readFileSync, writeFileSync } from 'node:fs';

const OS = ['darwin', 'linux', 'win32', 'freebsd', 'openbsd', 'netbsd', 'sunos', 'aix', 'android', 'openharmony'];
const CPU = ['arm64', 'x64', 'ia32', 'arm', 'ppc64', 's390x', 'riscv64', 'loong64', 'mips64el', 'wasm32'];
const path = new URL('../../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(path, 'utf8'));
let added = 0;
for (const [location, entry] of Object.entries(lock.packages)) {
  for (const [name, range] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = `${location ? `${location}/` : ''}node_modules/${name}`;
    if (lock.packages[nested] || lock.packages[`node_modules/${name}`]) continue;
    const parts = name.split(/[/-]/);
    const os = OS.filter((o) => parts.includes(o));
    const cpu = CPU.filter((c) => parts.includes(c));
    lock.packages[`node_modules/${name}`] = {
      version: String(range).replace(/^[\^~=]/, ''),
      optional: true,
      ...(os.length ? { os } : {}),
      ...(cpu.length ? { cpu } : {}),
      ...(parts.includes('musl') ? { libc: ['musl'] } : parts.includes('gnu') || parts.includes('gnueabihf') ? { libc: ['glibc'] } : {}),
    };
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`added ${added} optional platform entries to package-lock.json`);
