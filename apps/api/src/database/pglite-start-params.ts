import { PGlite } from '@electric-sql/pglite';

/**
 * PGlite's own start parameters plus a smaller buffer pool. PGlite allocates PostgreSQL's shared memory
 * inside its WASM heap and touches all of it at start, so the initdb default of 128 MB shared_buffers is
 * 128 MB of resident memory before the first query; our tables are small and the kernel's page cache still
 * serves what the pool misses. Durability settings (fsync, synchronous_commit, full_page_writes) are
 * PGlite's own, untouched.
 */
export const PGLITE_SHARED_BUFFERS = '16MB';

export const pgliteStartParams = (): string[] => [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`];
