import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import type { PGliteOptions } from '@electric-sql/pglite';

type PgliteWasmModule = NonNullable<PGliteOptions['pgliteWasmModule']>;
// The service's TypeScript library (ES2023, no DOM) does not declare WebAssembly; Node has it.
const { Module } = (globalThis as unknown as { WebAssembly: { Module: new (bytes: Uint8Array) => PgliteWasmModule } }).WebAssembly;

/**
 * PGlite's WASM module compiled by V8's baseline compiler (Liftoff) only. By default V8 recompiles hot
 * functions with its optimising compiler in the background; for PostgreSQL's large functions that work
 * leaves 40–60 MB in the process for good (PGlite alone here: 167 → 130 MB idle, 218–232 → 177 MB after
 * 9,000 small queries), and our short queries ran no slower without it. The flag is read when a module is
 * compiled: it is set for this one compilation and cleared again, so no other WASM in the process is affected.
 */
export function compilePgliteWasmModule(): PgliteWasmModule {
  const wasmPath = join(dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')), 'pglite.wasm');
  const bytes = readFileSync(wasmPath);
  setFlagsFromString('--liftoff-only');
  try {
    return new Module(bytes);
  } finally {
    setFlagsFromString('--no-liftoff-only');
  }
}
